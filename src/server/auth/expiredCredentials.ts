import type { Queryable } from '../db/database';
import { ACCOUNT_BACKOFF } from './accountBackoff';
import { LOGIN_THROTTLE } from './loginThrottle';

// Signing in leaves rows behind that nothing reads once they are past use: every refresh replaces
// the refresh token with a new row (an active user adds dozens a day), every reset request adds a
// password_resets row, every mistyped or sprayed email a login_throttle row. Deleted here, hourly
// (monitor/backgroundServices.ts), a day after they stopped counting:
// - the refresh tokens of a sign-in that has ended (no token of its family is unrevoked and
//   unexpired), a day past their own expiry. A live sign-in keeps every token it replaced: one of
//   them presented again, however old, means a second holder, and revokes the sign-in
//   (refreshTokens.ts) — a thief who rotated a stolen token first is locked out when the user's
//   idle client comes back with it.
// - password resets a day past their expiry, used or not;
// - throttle rows whose failure window and lock both ended a day ago (the next failure would start
//   a new window anyway), and account backoff rows quiet for as long (accountBackoff.ts).
// In chunks, so that on PGlite (one session) requests and recorder writes run between them. Each
// chunk's delete checks its condition again on the rows it deletes: on PostgreSQL a row changed
// after the chunk was chosen (a throttle row that has just locked an account) is re-read, and is
// left alone unless it still qualifies.

const CHUNK_ROWS = 5_000;

export interface ExpiredCredentialsDeleted {
  refreshTokens: number;
  passwordResets: number;
  loginThrottles: number;
  accountBackoffs: number;
}

export interface DeleteExpiredOptions {
  /** Rows per statement (default 5,000). */
  chunkRows?: number;
  /** Checked between chunks: a shutdown stops the run there. */
  shouldStop?: () => boolean;
}

// Conditions on unqualified columns of the table they name (they run inside and outside the chunk's subquery).
const EXPIRED: Record<keyof ExpiredCredentialsDeleted, { table: string; key: string; where: string }> = {
  refreshTokens: {
    table: 'refresh_tokens',
    key: 'id',
    where: `expires_at < now() - interval '1 day'
            and not exists (select 1 from refresh_tokens live
                             where live.family_id = refresh_tokens.family_id and live.revoked_at is null and live.expires_at > now())`,
  },
  passwordResets: { table: 'password_resets', key: 'id', where: "expires_at < now() - interval '1 day'" },
  loginThrottles: {
    table: 'login_throttle',
    key: 'email',
    where: `window_start < now() - interval '1 day' - make_interval(secs => ${LOGIN_THROTTLE.windowSeconds})
            and (locked_until is null or locked_until < now() - interval '1 day')`,
  },
  accountBackoffs: {
    table: 'login_account_backoff',
    key: 'email',
    where: `last_failure_at < now() - interval '1 day' - make_interval(secs => ${ACCOUNT_BACKOFF.quietSeconds})
            and (blocked_until is null or blocked_until < now() - interval '1 day')`,
  },
};

export async function deleteExpiredCredentials(
  db: Queryable,
  options: DeleteExpiredOptions = {},
): Promise<ExpiredCredentialsDeleted> {
  const chunkRows = options.chunkRows ?? CHUNK_ROWS;
  const deleted: ExpiredCredentialsDeleted = {
    refreshTokens: 0,
    passwordResets: 0,
    loginThrottles: 0,
    accountBackoffs: 0,
  };
  for (const [kind, { table, key, where }] of Object.entries(EXPIRED) as [
    keyof ExpiredCredentialsDeleted,
    (typeof EXPIRED)[keyof ExpiredCredentialsDeleted],
  ][]) {
    for (;;) {
      if (options.shouldStop?.()) return deleted;
      const [{ n }] = await db.query<{ n: number }>(
        `with gone as (
           delete from ${table} where ${key} in (select ${key} from ${table} where ${where} limit $1) and ${where}
           returning 1)
         select count(*)::int as n from gone`,
        [chunkRows],
      );
      deleted[kind] += n;
      if (n < chunkRows) break;
    }
  }
  return deleted;
}
