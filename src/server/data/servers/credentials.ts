import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Upstream credentials (headers such as Authorization) are encrypted at rest with AES-256-GCM
// under a key derived from the server secret, so a database dump alone reveals nothing. Format:
// "v1." + base64url(iv[12] | tag[16] | ciphertext).
const VERSION = 'v1.';
const keyCache = new Map<string, Buffer>();

function keyFor(secret: string): Buffer {
  let key = keyCache.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'toolscope', 'upstream-credentials/v1', 32));
    keyCache.set(secret, key);
  }
  return key;
}

export function encryptCredentials(headers: Record<string, string>, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(headers), 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** The stored headers, or {} when there are none. Throws when the value was tampered with or the secret changed. */
export function decryptCredentials(stored: string | null, secret: string): Record<string, string> {
  if (!stored) return {};
  if (!stored.startsWith(VERSION)) throw new Error('Unknown credentials format');
  const raw = Buffer.from(stored.slice(VERSION.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  return JSON.parse(plain) as Record<string, string>;
}
