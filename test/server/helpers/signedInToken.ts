import type { Queryable } from '../../../src/server/db/database';
import { signAccessToken } from '../../../src/server/auth/accessToken';
import { issueRefreshToken } from '../../../src/server/auth/refreshTokens';

// An access token for a user written straight to the database: every access token belongs to a
// sign-in that must still hold (auth/guards.ts), so the fixture starts one, as a login would.
export async function signedInAccessToken(
  db: Queryable,
  userId: string,
  secret: string,
  options: { nowSeconds?: number; ttlSeconds?: number } = {},
): Promise<string> {
  const signIn = await issueRefreshToken(db, userId);
  return signAccessToken(userId, secret, signIn.familyId, options.nowSeconds, options.ttlSeconds);
}
