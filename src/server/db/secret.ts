import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, generateSecret } from '../config';
import { syncPath } from '../files/fileSync';
import { makePrivateDir, writePrivateFile } from '../files/privatePaths';

/** generateSecret's are 64 characters; one shorter than this in the file was not written whole. */
const SHORTEST_SECRET = 32;

/**
 * Without TOOLSCOPE_SECRET, a secret is generated on first start and kept (mode 600) in the data
 * dir, so access tokens and encrypted upstream credentials survive a restart.
 *
 * Written whole or not at all: to a file of its own, synced, then linked in under its name (which
 * fails if another process got there first: then that one's is read), and the folder synced. A
 * plain write could leave an empty or cut file after a crash — which read back as a secret of a
 * few characters or none, signing tokens anyone could forge. So a secret read from the file that
 * is too short stops the start instead: making a new one would sign everyone out and make stored
 * credentials unreadable without saying why.
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  makePrivateDir(dataDir);
  if (!fs.existsSync(file)) create(file);
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < SHORTEST_SECRET)
    throw new ConfigError(
      `The secret in ${file} is ${secret.length === 0 ? 'empty' : `cut short (${secret.length} characters)`}: ` +
        'it was not written whole (a crash during the first start, or a full disk). Restore the file from a backup, ' +
        'or set TOOLSCOPE_SECRET to the secret this data was made with. If the data folder holds nothing yet, ' +
        'delete the file and start again. No new secret is made: it would sign everyone out and make stored ' +
        'credentials unreadable.',
    );
  return secret;
}

function create(file: string): void {
  const draft = `${file}.${process.pid}.draft`;
  writePrivateFile(draft, generateSecret());
  try {
    syncPath(draft);
    fs.linkSync(draft, file);
    syncPath(path.dirname(file));
  } catch (error) {
    // Another process starting on the same folder linked its secret first: that one is used.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}
