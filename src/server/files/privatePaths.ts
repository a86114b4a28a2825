import fs from 'node:fs';
import path from 'node:path';

// The data folder holds the database (accounts, stored credentials), the secret key and the
// recording journal (tool arguments and results as agents sent them): nobody but the user
// Toolscope runs as may read any of it. Folders are created 0700 and files 0600 whatever the
// umask, and `widePrivatePaths` finds what an operator (or an older version) left wider.
// PGlite writes its own files 0666 regardless of the umask: the 0700 folders above them are what
// keeps them private (docs/security.md, "Files").

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parent readable by this user only. An existing folder is left as it is. */
export function makePrivateDir(dir: string): void {
  const target = path.resolve(dir);
  const firstCreated = fs.mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (firstCreated === undefined) return;
  // A umask can only narrow the mode, but a strict one (0277) would leave a folder we cannot write
  // to: chmod says exactly what is meant, for every folder this call created.
  for (let folder = target; ; folder = path.dirname(folder)) {
    fs.chmodSync(folder, PRIVATE_DIR_MODE);
    if (folder === path.resolve(firstCreated) || folder === path.dirname(folder)) break;
  }
}

/** Writes a new file (or replaces one) that only this user can read. */
export function writePrivateFile(file: string, content: string, flag: 'w' | 'wx' = 'w'): void {
  fs.writeFileSync(file, content, { mode: PRIVATE_FILE_MODE, flag });
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** Opens a file for appending, created 0600 whatever the umask. */
export function openPrivateAppend(file: string): number {
  const fd = fs.openSync(file, 'a', PRIVATE_FILE_MODE);
  fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  return fd;
}

export interface WidePath {
  path: string;
  /** Permission bits, e.g. 0o755. */
  mode: number;
}

/**
 * The given folders (and the files directly inside the ones marked `files`) that other users may
 * read, write or enter. Missing paths are skipped: nothing has been written there yet.
 */
export function widePrivatePaths(folders: { dir: string; files?: boolean }[]): WidePath[] {
  const wide: WidePath[] = [];
  const check = (target: string) => {
    const mode = fs.statSync(target, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o077) !== 0) wide.push({ path: target, mode: mode & 0o777 });
  };
  for (const { dir, files } of folders) {
    if (!fs.existsSync(dir)) continue;
    check(dir);
    if (!files) continue;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
      if (entry.isFile()) check(path.join(dir, entry.name));
  }
  return wide;
}

/** The warning printed at start for wide paths, with the command that fixes them; null when all are private. */
export function widePathsWarning(wide: WidePath[]): string | null {
  if (wide.length === 0) return null;
  const listed = wide.map((w) => `${w.path} (${w.mode.toString(8).padStart(4, '0')})`).join(', ');
  const dirs = wide.filter((w) => fs.statSync(w.path, { throwIfNoEntry: false })?.isDirectory()).map((w) => w.path);
  const files = wide.filter((w) => !dirs.includes(w.path)).map((w) => w.path);
  const fixes = [
    ...(dirs.length ? [`chmod 700 ${dirs.join(' ')}`] : []),
    ...(files.length ? [`chmod 600 ${files.join(' ')}`] : []),
  ];
  return `Toolscope's data is readable by other users of this machine: ${listed}. Fix with: ${fixes.join(' && ')}`;
}

/** What is checked at start: the data folder (and the secret in it), PGlite's folder, the journal and its segments. */
export function dataPermissionsWarning(dataDir: string, journalDir: string | undefined): string | null {
  return widePathsWarning(
    widePrivatePaths([
      { dir: dataDir, files: true },
      { dir: path.join(dataDir, 'pglite') },
      ...(journalDir ? [{ dir: journalDir, files: true }] : []),
    ]),
  );
}
