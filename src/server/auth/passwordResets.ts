import type { Queryable } from '../db/database';
import { hashOpaqueToken, newOpaqueToken } from './opaqueToken';

// Password-reset tokens: random, stored hashed, valid for one hour and for one use. A user can
// have at most MAX_PER_HOUR requested per hour, so the forgot-password form cannot be used to
// flood someone's inbox (the caller still gets the same answer).
export const PASSWORD_RESET = { ttlSeconds: 60 * 60, maxPerHour: 3 } as const;

/** Creates a reset token for the user, or returns null when the hourly allowance is spent. */
export async function createPasswordReset(db: Queryable, userId: string): Promise<string | null> {
  const recent = await db.query<{ count: number }>(
    `select count(*)::int as count from password_resets where user_id = $1 and created_at > now() - interval '1 hour'`,
    [userId],
  );
  if (recent[0].count >= PASSWORD_RESET.maxPerHour) return null;
  const token = newOpaqueToken();
  await db.query(
    `insert into password_resets (user_id, token_hash, expires_at) values ($1, $2, now() + make_interval(secs => $3))`,
    [userId, hashOpaqueToken(token), PASSWORD_RESET.ttlSeconds],
  );
  return token;
}

/**
 * Uses up a reset token and every other open one of the same user. Returns the user id, or
 * null when the token is unknown, used or expired. One conditional update, so two concurrent
 * uses cannot both succeed.
 */
export async function consumePasswordReset(db: Queryable, token: string): Promise<string | null> {
  const rows = await db.query<{ user_id: string }>(
    `update password_resets set used_at = now()
     where token_hash = $1 and used_at is null and expires_at > now() returning user_id`,
    [hashOpaqueToken(token)],
  );
  const userId = rows[0]?.user_id;
  if (!userId) return null;
  await db.query('update password_resets set used_at = now() where user_id = $1 and used_at is null', [userId]);
  return userId;
}
