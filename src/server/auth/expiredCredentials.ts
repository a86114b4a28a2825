import type { Queryable } from '../db/database';
import { LOGIN_THROTTLE } from './loginThrottle';

// Signing in leaves rows behind that nothing reads once they are past use: every refresh replaces
// the refresh token with a new row (an active user adds dozens a day), every reset request adds a
// password_resets row, every mistyped or sprayed email a login_throttle row. Deleted here, hourly
// (monitor/backgroundServices.ts), a day after they stopped counting:
// - refresh tokens a day past their expiry. Presented again, such a token is refused as unknown
//   rather than as expired or reused, which gives the same 401; what is lost is reuse detection
//   for a token already expired (a thief presenting it revoked its whole sign-in), and a token
//   that old gets no one in either way.
// - password resets a day past their expiry, used or not;
// - throttle rows whose failure window and lock both ended a day ago (the next failure would start
//   a new window anyway).
// In chunks, so that on PGlite (one session) requests and recorder writes run between them.

const CHUNK_ROWS = 5_000;

export interface ExpiredCredentialsDeleted {
  refreshTokens: number;
  passwordResets: number;
  loginThrottles: number;
}

const EXPIRED: Record<keyof ExpiredCredentialsDeleted, { table: string; key: string; where: string }> = {
  refreshTokens: { table: 'refresh_tokens', key: 'id', where: "expires_at < now() - interval '1 day'" },
  passwordResets: { table: 'password_resets', key: 'id', where: "expires_at < now() - interval '1 day'" },
  loginThrottles: {
    table: 'login_throttle',
    key: 'email',
    where: `window_start < now() - interval '1 day' - make_interval(secs => ${LOGIN_THROTTLE.windowSeconds})
            and (locked_until is null or locked_until < now() - interval '1 day')`,
  },
};

export async function deleteExpiredCredentials(db: Queryable, chunkRows = CHUNK_ROWS): Promise<ExpiredCredentialsDeleted> {
  const deleted: ExpiredCredentialsDeleted = { refreshTokens: 0, passwordResets: 0, loginThrottles: 0 };
  for (const [kind, { table, key, where }] of Object.entries(EXPIRED) as [keyof ExpiredCredentialsDeleted, (typeof EXPIRED)[keyof ExpiredCredentialsDeleted]][]) {
    for (;;) {
      const [{ n }] = await db.query<{ n: number }>(
        `with gone as (delete from ${table} where ${key} in (select ${key} from ${table} where ${where} limit $1) returning 1)
         select count(*)::int as n from gone`,
        [chunkRows],
      );
      deleted[kind] += n;
      if (n < chunkRows) break;
    }
  }
  return deleted;
}
