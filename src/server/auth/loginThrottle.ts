import type { Queryable } from '../db/database';

// Per-account sign-in throttling, keyed by the normalised email whether or not an account
// exists (so a lock-out reveals nothing either). After MAX_FAILURES wrong answers within
// WINDOW_SECONDS the email is locked for LOCK_SECONDS, during which even the right password is
// refused: a guesser learns nothing from a locked account. A success clears the record.
export const LOGIN_THROTTLE = {
  maxFailures: 5,
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
} as const;

/** Seconds until the email may try again, or 0 when it is not locked. */
export async function lockedForSeconds(db: Queryable, email: string): Promise<number> {
  const rows = await db.query<{ seconds: number }>(
    `select ceil(extract(epoch from (locked_until - now())))::int as seconds
     from login_throttle where email = $1 and locked_until > now()`,
    [email],
  );
  return rows[0]?.seconds ?? 0;
}

/** Counts a failed sign-in; returns the seconds of lock-out it caused (0 = not locked yet). */
export async function recordLoginFailure(db: Queryable, email: string): Promise<number> {
  const { maxFailures, windowSeconds, lockSeconds } = LOGIN_THROTTLE;
  // One statement, so concurrent failures cannot both read a stale count.
  const rows = await db.query<{ failures: number }>(
    `insert into login_throttle as t (email, failures, window_start) values ($1, 1, now())
     on conflict (email) do update set
       failures = case when t.window_start <= now() - make_interval(secs => $2) then 1 else t.failures + 1 end,
       window_start = case when t.window_start <= now() - make_interval(secs => $2) then now() else t.window_start end
     returning failures`,
    [email, windowSeconds],
  );
  if (rows[0].failures < maxFailures) return 0;
  await db.query(
    `update login_throttle set locked_until = now() + make_interval(secs => $2), failures = 0, window_start = now() where email = $1`,
    [email, lockSeconds],
  );
  return lockSeconds;
}

export async function clearLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('delete from login_throttle where email = $1', [email]);
}
