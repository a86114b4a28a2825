import type { Queryable } from '../db/database';

// The per-account half of sign-in throttling (issue 31 item 4). The per email × client lock-out
// (loginThrottle.ts) stops one client; an attacker with many addresses is stopped here: past
// FREE_FAILURES wrong passwords for one email (from anywhere, counted until QUIET_SECONDS pass
// without one) every further failure doubles a wait, up to MAX_DELAY_SECONDS, during which the
// account answers sign-ins from unknown devices with 429 before looking at the password. A known
// device (knownDevice.ts) is not held by it, so the owner signs in while the attack goes on; from
// a new device the owner waits at most MAX_DELAY_SECONDS — slowed, never locked out.
export const ACCOUNT_BACKOFF = {
  freeFailures: 10,
  quietSeconds: 15 * 60,
  firstDelaySeconds: 2,
  maxDelaySeconds: 5 * 60,
} as const;

/** Seconds until an unknown device may try this email again (0 = now). */
export async function accountBackoffSeconds(db: Queryable, email: string): Promise<number> {
  const rows = await db.query<{ seconds: number }>(
    `select ceil(extract(epoch from (blocked_until - now())))::int as seconds
     from login_account_backoff where email = $1 and blocked_until > now()`,
    [email],
  );
  return rows[0]?.seconds ?? 0;
}

/** Counts a wrong password for the email from any client; returns the wait it set (0 = none yet). */
export async function recordAccountFailure(db: Queryable, email: string): Promise<number> {
  const { freeFailures, quietSeconds, firstDelaySeconds, maxDelaySeconds } = ACCOUNT_BACKOFF;
  // One statement: concurrent failures each add one. The wait doubles per failure past the free
  // ones (the exponent is capped before the power so it cannot overflow).
  const rows = await db.query<{ seconds: number }>(
    `insert into login_account_backoff as b (email, failures, last_failure_at) values ($1, 1, now())
     on conflict (email) do update set
       failures = case when b.last_failure_at <= now() - make_interval(secs => $2) then 1 else b.failures + 1 end,
       last_failure_at = now()
     returning case when failures < $3 then 0
       else least($5::int, $4::int * power(2, least(failures - $3, 20))::int) end as seconds`,
    [email, quietSeconds, freeFailures, firstDelaySeconds, maxDelaySeconds],
  );
  const seconds = rows[0].seconds;
  if (seconds > 0)
    await db.query(
      `update login_account_backoff set blocked_until = now() + make_interval(secs => $2) where email = $1`,
      [email, seconds],
    );
  return seconds;
}

/** After a password reset: the account starts again. */
export async function clearAccountBackoff(db: Queryable, email: string): Promise<void> {
  await db.query('delete from login_account_backoff where email = $1', [email]);
}
