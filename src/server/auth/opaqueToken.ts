import { createHash, randomBytes } from 'node:crypto';

// Refresh and password-reset tokens are random strings the database never sees: only their
// SHA-256 is stored, so a leaked table cannot be replayed. 32 bytes make guessing hopeless,
// which is also why a fast hash (not argon2) is enough here.
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
