import fs from 'node:fs';
import path from 'node:path';
import { generateSecret } from '../config';

/**
 * Without TOOLSCOPE_SECRET, a secret is generated on first start and kept (mode 600) in the data
 * dir, so access tokens and encrypted upstream credentials survive a restart.
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = generateSecret();
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
