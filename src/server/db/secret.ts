import fs from 'node:fs';
import path from 'node:path';
import { generateSecret } from '../config';
import { makePrivateDir, writePrivateFile } from '../files/privatePaths';

/**
 * Without TOOLSCOPE_SECRET, a secret is generated on first start and kept (mode 600) in the data
 * dir, so access tokens and encrypted upstream credentials survive a restart.
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  makePrivateDir(dataDir);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = generateSecret();
  writePrivateFile(file, secret, 'wx');
  return secret;
}
