// `npm run build:client`: builds the SPA without pulling files from under a running instance
// (issue 14 item 7; docs/operations.md "Building beside a running instance").
//
// Vite writes into a fresh folder of its own (dist/.client-build-<pid>). Its files then move into
// dist/client one by one: hashed assets first (new names, nothing running uses them yet), the
// other files next, index.html last — each a rename, atomic on one file system, so a request at
// any moment gets either the old or the new file whole, and never a 404. Assets of earlier builds
// stay: a page loaded before this build still finds its lazy chunks. Kept are the assets of the
// current build, of the one before it and of every build of the last 24 hours; older ones go.
// The list of builds is dist/client-builds.json (outside dist/client: it is not served).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const target = path.join(dist, 'client');
const staging = path.join(dist, `.client-build-${process.pid}`);
const historyFile = path.join(dist, 'client-builds.json');
const KEEP_MS = 24 * 60 * 60 * 1000;

fs.rmSync(staging, { recursive: true, force: true });
const vite = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', staging, '--emptyOutDir'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (vite.status !== 0) {
  fs.rmSync(staging, { recursive: true, force: true });
  process.exit(vite.status ?? 1);
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)));
}

const isAsset = (file) => file.split(path.sep)[0] === 'assets';
const built = filesUnder(staging);

let history = [];
try {
  history = JSON.parse(fs.readFileSync(historyFile, 'utf8'));
  if (!Array.isArray(history)) history = [];
} catch {
  history = [];
}
// No list yet (the first build of this kind): what dist/client holds counts as the build before.
if (history.length === 0) {
  const existing = filesUnder(path.join(target, 'assets')).map((f) => path.join('assets', f));
  if (existing.length) history.push({ builtAt: new Date().toISOString(), assets: existing });
}

const moveIn = (file) => {
  fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
  fs.renameSync(path.join(staging, file), path.join(target, file));
};
// Hashed assets: a name already there holds the same content, so it is left as it is.
for (const file of built.filter(isAsset)) {
  if (!fs.existsSync(path.join(target, file))) moveIn(file);
}
for (const file of built.filter((f) => !isAsset(f) && f !== 'index.html')) moveIn(file);
moveIn('index.html');
fs.rmSync(staging, { recursive: true, force: true });

// Prune assets no kept build lists.
const now = Date.now();
history.push({ builtAt: new Date(now).toISOString(), assets: built.filter(isAsset) });
history = history.filter((build, index) => index >= history.length - 2 || now - Date.parse(build.builtAt) < KEEP_MS);
const kept = new Set(history.flatMap((build) => build.assets));
let removed = 0;
for (const file of filesUnder(path.join(target, 'assets')).map((f) => path.join('assets', f))) {
  if (!kept.has(file)) {
    fs.rmSync(path.join(target, file), { force: true });
    removed++;
  }
}
fs.writeFileSync(`${historyFile}.tmp`, JSON.stringify(history, null, 1));
fs.renameSync(`${historyFile}.tmp`, historyFile);
console.log(
  `dist/client: ${built.length} files of this build moved in; assets of ${history.length} build(s) kept${removed ? `, ${removed} older asset(s) removed` : ''}.`,
);
