// Writes the rooms-and-arrows graph of src/ (dependency-cruiser, collapsed to rooms) into
// docs/architecture.md between its graph markers, as a Mermaid flowchart. `npm run arch:graph`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const ROOMS = '^src/(contract|demo)|^src/server/[^/]+|^src/client/(app|api|shell|components|features/[^/]+)';
const graph = execFileSync(
  process.execPath,
  [
    path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
    'src',
    '--config',
    '.dependency-cruiser.cjs',
    '--include-only',
    '^src/',
    '--collapse',
    ROOMS,
    '--output-type',
    'mermaid',
  ],
  { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
);
const doc = path.join(root, 'docs/architecture.md');
const text = fs.readFileSync(doc, 'utf8');
const start = '<!-- arch-graph:start -->';
const end = '<!-- arch-graph:end -->';
const i = text.indexOf(start);
const j = text.indexOf(end);
if (i < 0 || j < i) throw new Error(`docs/architecture.md has no ${start} … ${end} markers`);
fs.writeFileSync(doc, `${text.slice(0, i + start.length)}\n\`\`\`mermaid\n${graph.trim()}\n\`\`\`\n${text.slice(j)}`);
console.log('docs/architecture.md: graph written');
