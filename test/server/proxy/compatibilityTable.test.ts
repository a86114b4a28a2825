import fs from 'node:fs';
import path from 'node:path';

// Issue 37, "Done when": docs/proxy.md's compatibility table (client × transport × protocol version
// → tested) is kept by the tests. Every row names the test files that prove it; a test renamed or
// removed, or a row without a test or a version, fails here instead of leaving the table stale.
const HEADER = '| client | transport | protocol version | through | tested by |';
const VERSIONS = /\b(2024-11-05|2025-03-26|2025-06-18|2025-11-25|2026-07-28)\b/;

function tableRows(): string[][] {
  const lines = fs.readFileSync(path.join(process.cwd(), 'docs/proxy.md'), 'utf8').split('\n');
  const start = lines.indexOf(HEADER);
  if (start < 0) throw new Error(`docs/proxy.md has no compatibility table (its header: ${HEADER})`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .replace(/^\||\|$/g, '')
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The test files a "tested by" cell names; a bare file name is in the folder of the path before it. */
function testFiles(cell: string): string[] {
  let folder = '';
  return [...cell.matchAll(/`([^`]+\.test\.tsx?)`/g)].map(([, name]) => {
    if (name.includes('/')) folder = path.dirname(name);
    return name.includes('/') ? name : path.join(folder, name);
  });
}

describe('docs/proxy.md’s compatibility table', () => {
  const rows = tableRows();

  it('has a row for each client, transport and version tested', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
    for (const row of rows) expect(row).toHaveLength(5);
  });

  it.each(rows.map((row) => [row[0], row]))('names a protocol version and existing tests: %s', (_client, row) => {
    const [, , version, , testedBy] = row;
    expect(version).toMatch(VERSIONS);
    const files = testFiles(testedBy);
    expect(files.length).toBeGreaterThan(0);
    const missing = files.filter((file) => !fs.existsSync(path.join(process.cwd(), file)));
    expect(missing).toEqual([]);
  });
});
