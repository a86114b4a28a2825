import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/server/db/database';
import { loadOrCreateSecret } from '../../../src/server/db/secret';
import { Journal } from '../../../src/server/recording/journal/journal';
import { dataPermissionsWarning } from '../../../src/server/files/privatePaths';

// The data folder holds accounts, stored credentials, the secret key and the journal of tool
// arguments and results: other users of the machine must not read it, whatever umask Toolscope
// was started with (docs/security.md, "Files").
jest.setTimeout(60_000);

const mode = (target: string) => fs.statSync(target).mode & 0o777;

describe('data folder and journal permissions', () => {
  let root: string;
  let umask: number;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-private-'));
    // The most permissive umask: anything private below is private because Toolscope made it so.
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates the data folder, the database folder, the secret and the journal for this user only', async () => {
    const dataDir = path.join(root, 'data');
    const journalDir = path.join(dataDir, 'journal');
    loadOrCreateSecret(dataDir);
    const db = await openDatabase({ dataDir, pgliteOnCallingThread: true });
    await db.close();
    const journal = new Journal({ dir: journalDir, fsyncMs: 0, maxBytes: 1024 * 1024 });
    const journalFiles = fs.readdirSync(journalDir).map((file) => [file, mode(path.join(journalDir, file))]);
    journal.close();

    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'pglite'))).toBe(0o700);
    expect(mode(path.join(dataDir, 'secret.key'))).toBe(0o600);
    expect(mode(journalDir)).toBe(0o700);
    expect(journalFiles.length).toBeGreaterThan(0); // a segment and the lock
    for (const [file, fileMode] of journalFiles) expect([file, fileMode]).toEqual([file, 0o600]);
    expect(dataPermissionsWarning(dataDir, journalDir)).toBeNull();
  });

  it('warns at start about a data folder or journal segment left readable, with the fix', () => {
    const dataDir = path.join(root, 'data');
    const journalDir = path.join(root, 'journal');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.mkdirSync(journalDir, { mode: 0o700 });
    fs.writeFileSync(path.join(journalDir, '000000000001.journal'), 'x', { mode: 0o644 });

    const warning = dataPermissionsWarning(dataDir, journalDir);
    expect(warning).toContain(`${dataDir} (0755)`);
    expect(warning).toContain(`${path.join(journalDir, '000000000001.journal')} (0644)`);
    expect(warning).toContain(`chmod 700 ${dataDir}`);
    expect(warning).toContain(`chmod 600 ${path.join(journalDir, '000000000001.journal')}`);
    expect(warning).not.toContain(`${journalDir} (`);
  });
});
