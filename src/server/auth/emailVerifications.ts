import type { Queryable } from '../db/database';
import { hashOpaqueToken, newOpaqueToken } from './opaqueToken';

// Email verification tokens (issue 31 item 5): random, stored hashed, valid for a day and for one
// use, bound to the address they were mailed to. At most MAX_PER_HOUR per account per hour, so
// "send the link again" cannot flood an inbox.
export const EMAIL_VERIFICATION = { ttlSeconds: 24 * 60 * 60, maxPerHour: 3 } as const;

/** A token for the account's address, or null when the hourly allowance is spent. */
export async function createEmailVerification(db: Queryable, userId: string, email: string): Promise<string | null> {
  const recent = await db.query<{ count: number }>(
    `select count(*)::int as count from email_verifications where user_id = $1 and created_at > now() - interval '1 hour'`,
    [userId],
  );
  if (recent[0].count >= EMAIL_VERIFICATION.maxPerHour) return null;
  const token = newOpaqueToken();
  await db.query(
    `insert into email_verifications (user_id, email, token_hash, expires_at)
     values ($1, $2, $3, now() + make_interval(secs => $4))`,
    [userId, email, hashOpaqueToken(token), EMAIL_VERIFICATION.ttlSeconds],
  );
  return token;
}

/**
 * Uses up the token and marks the account's address verified — only if the account still has the
 * address the link was mailed to. Returns the user id, or null for an unknown, used or expired
 * token. One conditional update, so two uses cannot both succeed.
 */
export async function consumeEmailVerification(db: Queryable, token: string): Promise<string | null> {
  const rows = await db.query<{ user_id: string }>(
    `with used as (
       update email_verifications set used_at = now()
       where token_hash = $1 and used_at is null and expires_at > now() returning user_id, email)
     update users u set email_verified_at = coalesce(u.email_verified_at, now())
     from used where u.id = used.user_id and u.email = used.email returning u.id as user_id`,
    [hashOpaqueToken(token)],
  );
  return rows[0]?.user_id ?? null;
}

export async function isEmailVerified(db: Queryable, userId: string): Promise<boolean> {
  const rows = await db.query<{ verified: boolean }>(
    'select email_verified_at is not null as verified from users where id = $1',
    [userId],
  );
  return rows[0]?.verified ?? false;
}
