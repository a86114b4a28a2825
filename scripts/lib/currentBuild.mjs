// `npm start` and `npm run demo` build only when the build is not current (issue 38 item 5): a build
// took 30–55 s on a shared machine even when nothing had changed. "Current" means the build's
// outputs are there and every input it was made from — the sources, the build's own configuration
// and the lock file — has the same content as when it was made. Content, not modification times:
// a `git checkout` back and forth touches files without changing them.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the build reads, relative to the project root (a missing entry counts as absent). */
const INPUTS = [
  'src',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.server.json',
  'package.json',
  'package-lock.json',
  'scripts/build-client.mjs',
];
/** What the build makes: without them nothing can start, whatever the fingerprint says. */
const OUTPUTS = ['dist/node/server/main.js', 'dist/client/index.html'];
const STAMP = 'dist/build-inputs.sha256';
const PENDING = 'dist/build-inputs.pending';

function filesUnder(root, entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) => path.relative(root, path.join(dirent.parentPath, dirent.name)));
}

/** One hash over the names and contents of every input, in a fixed order. */
export function inputsFingerprint(root) {
  const hash = crypto.createHash('sha256');
  const files = INPUTS.flatMap((entry) => filesUnder(root, entry)).sort();
  for (const file of files) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether the last build was made from exactly the inputs there are now. */
export function buildIsCurrent(root, fingerprint = inputsFingerprint(root)) {
  if (!OUTPUTS.every((file) => fs.existsSync(path.join(root, file)))) return false;
  const stampFile = path.join(root, STAMP);
  return fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8').trim() === fingerprint;
}

/**
 * `npm run build`'s prebuild step: the fingerprint of the inputs as the build starts. Taken BEFORE
 * building, so a file edited during the build makes the next start build again rather than run
 * outputs that miss the edit. Until the build ends, no stamp: a half-done build is never current.
 */
export function beginBuild(root) {
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.rmSync(path.join(root, STAMP), { force: true });
  fs.writeFileSync(path.join(root, PENDING), `${inputsFingerprint(root)}\n`);
}

/** `npm run build`'s postbuild step (only after a build that succeeded): the outputs match the inputs. */
export function endBuild(root) {
  fs.renameSync(path.join(root, PENDING), path.join(root, STAMP));
}

/** Runs `npm run build` in `root` unless the build is current, saying which in one line; false when the build failed (its output is printed). */
export function buildUnlessCurrent(root, log = (line) => console.log(line)) {
  const startedAt = Date.now();
  if (buildIsCurrent(root)) {
    log('Build is current (sources and package-lock.json unchanged since the last build): not rebuilding.');
    return true;
  }
  log('Building Toolscope (npm run build): sources or package-lock.json changed since the last build…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) {
    log(`Build failed:\n${build.stdout}${build.stderr}`);
    return false;
  }
  log(`Built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`);
  return true;
}
