import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { MAX_PASSWORD_LENGTH } from '../../contract/auth';

// argon2id with the OWASP Password Storage Cheat Sheet minimum (m=19 MiB, t=2, p=1). The length
// cap (also enforced by the contract schemas) bounds the work an attacker can make us do per try.
// `Algorithm` is a const enum in the package typings; 2 is its Argon2id member.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- an ambient const enum cannot be named under isolatedModules, so its member is written as its number
const ARGON2ID = 2 as Algorithm;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  if (password.length > MAX_PASSWORD_LENGTH) throw new Error('password longer than the cap');
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/**
 * `null`: an account made by a provider sign-in that has no password yet (docs/access.md). It
 * matches nothing, in the time a real check takes, so timing does not tell such accounts apart.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) return spendPasswordCheckTime(password).then(() => false);
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash when the email is unknown, so an unknown account costs the
 * same time as a wrong password and response timing does not reveal which emails exist.
 */
export async function spendPasswordCheckTime(password: string): Promise<void> {
  decoyHash ??= hash('decoy password that matches nothing', PASSWORD_HASH_OPTIONS);
  await verifyPassword(await decoyHash, password);
}
