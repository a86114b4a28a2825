import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { PLATFORM_KEY_PREFIX } from '../../contract/keys';

// Platform key secrets: 'tsk_' + 30 random base62 characters (178 bits) + a 6-character base62
// CRC32 of everything before it, as GitHub's tokens do — a secret scanner can tell a real key from
// look-alike text without asking us, and a mistyped key is refused without a lookup. Only the
// SHA-256 of the secret is stored: it has enough entropy that a fast hash is safe.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
export const PLATFORM_KEY_LENGTH = PLATFORM_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const SHAPE = new RegExp(`^${PLATFORM_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above are dropped so every character is equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generatePlatformKeySecret(): string {
  const body = PLATFORM_KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** Shape and checksum: what can be told without looking anything up. */
export function isWellFormedPlatformKey(secret: string): boolean {
  if (secret.length !== PLATFORM_KEY_LENGTH || !SHAPE.test(secret)) return false;
  const body = secret.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === secret.slice(-CHECKSUM_LENGTH);
}

/** What lists show and what the proxy indexes keys by: 'tsk_' + 8 characters. */
export function platformKeyPrefix(secret: string): string {
  return secret.slice(0, PLATFORM_KEY_PREFIX.length + 8);
}

export function hashPlatformKey(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Constant-time comparison of two SHA-256 digests. */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
