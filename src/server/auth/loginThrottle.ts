import type { Queryable } from '../db/database';

// Per-account sign-in throttling, keyed by the normalised email (whether or not an account
// exists, so a lock-out reveals nothing) AND the client address: after MAX_FAILURES wrong answers
// within WINDOW_SECONDS from one client, that client is locked out of that email for LOCK_SECONDS,
// during which even the right password is refused. Keying by the client too means a stranger
// spraying wrong passwords locks only themself out, never the owner signing in from elsewhere; the
// per-client request limit (authRateLimits.ts) bounds how many emails one client may try.
export const LOGIN_THROTTLE = {
  maxFailures: 5,
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
} as const;

/** Seconds until this client may try this email again, or 0 when it is not locked. */
export async function lockedForSeconds(db: Queryable, email: string, client: string): Promise<number> {
  const rows = await db.query<{ seconds: number }>(
    `select ceil(extract(epoch from (locked_until - now())))::int as seconds
     from login_throttle where email = $1 and client = $2 and locked_until > now()`,
    [email, client],
  );
  return rows[0]?.seconds ?? 0;
}

/** Counts a failed sign-in; returns the seconds of lock-out it caused (0 = not locked yet). */
export async function recordLoginFailure(db: Queryable, email: string, client: string): Promise<number> {
  const { maxFailures, windowSeconds, lockSeconds } = LOGIN_THROTTLE;
  // One statement, so concurrent failures cannot both read a stale count.
  const rows = await db.query<{ failures: number }>(
    `insert into login_throttle as t (email, client, failures, window_start) values ($1, $3, 1, now())
     on conflict (email, client) do update set
       failures = case when t.window_start <= now() - make_interval(secs => $2) then 1 else t.failures + 1 end,
       window_start = case when t.window_start <= now() - make_interval(secs => $2) then now() else t.window_start end
     returning failures`,
    [email, windowSeconds, client],
  );
  if (rows[0].failures < maxFailures) return 0;
  await db.query(
    `update login_throttle set locked_until = now() + make_interval(secs => $2), failures = 0, window_start = now() where email = $1 and client = $3`,
    [email, lockSeconds, client],
  );
  return lockSeconds;
}

/** After a successful sign-in: this client's count for the email starts again. */
export async function clearLoginFailures(db: Queryable, email: string, client: string): Promise<void> {
  await db.query('delete from login_throttle where email = $1 and client = $2', [email, client]);
}

/** After a password reset: every client's lock on the email is lifted. */
export async function clearAllLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('delete from login_throttle where email = $1', [email]);
}
