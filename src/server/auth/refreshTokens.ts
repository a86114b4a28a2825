import { createHmac, randomUUID } from 'node:crypto';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../contract/constants';
import type { Database, Queryable } from '../db/database';
import { hashOpaqueToken, newOpaqueToken } from './opaqueToken';

// Refresh tokens are opaque, stored hashed, and single-use: every refresh replaces the token
// with a new one of the same family (one family = one sign-in). Presenting a token that was
// already replaced means two parties hold it (a thief and the user), so the whole family is
// revoked and both must sign in again (OAuth 2.0 Security BCP, refresh token rotation).
//
// Two tabs refreshing at the same moment is normal, not theft: within a short grace window after a
// rotation, the replaced token presented again returns the same new pair (RFC 9700 §4.14.2 allows
// this). The database keeps only hashes, so the successor is *derived* from the presented token
// with an HMAC of the server's secret: whoever shows the replaced token in time can be given the
// successor again, and nobody else can compute it. Past the window, reuse revokes the family.

/** Seconds after a rotation during which the replaced refresh token still yields its successor. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** Where a sign-in comes from, shown in the list of active sign-ins (docs/settings.md). */
export interface SignInOrigin {
  userAgent?: string | null;
  ip?: string | null;
}

export interface IssuedRefreshToken {
  id: string;
  token: string;
  familyId: string;
  /** When the token was issued (whole seconds): the access token issued beside it carries it as iat. */
  issuedAtSeconds: number;
}

export async function issueRefreshToken(
  db: Queryable,
  userId: string,
  familyId: string = randomUUID(),
  ttlSeconds = REFRESH_TOKEN_TTL_SECONDS,
  origin: SignInOrigin = {},
  token: string = newOpaqueToken(),
): Promise<IssuedRefreshToken> {
  const rows = await db.query<{ id: string; issued_at: number }>(
    `insert into refresh_tokens (user_id, family_id, token_hash, expires_at, user_agent, ip)
     values ($1, $2, $3, now() + make_interval(secs => $4), $5, $6)
     returning id, floor(extract(epoch from created_at))::float8 as issued_at`,
    [
      userId,
      familyId,
      hashOpaqueToken(token),
      ttlSeconds,
      origin.userAgent?.slice(0, 512) ?? null,
      origin.ip?.slice(0, 64) ?? null,
    ],
  );
  return { id: rows[0].id, token, familyId, issuedAtSeconds: rows[0].issued_at };
}

/** The token that replaces `token` at rotation: the same for every caller who presents `token`. */
function successorOf(token: string, secret: string): string {
  return createHmac('sha256', secret).update(`refresh-successor\0${token}`).digest('base64url');
}

export type RotationResult =
  | { ok: true; userId: string; token: string; familyId: string; tokenId: string; issuedAtSeconds: number }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' }
  | { ok: false; reason: 'reused'; userId: string; familyId: string };

interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  revoked_at: Date | null;
  replaced_by: string | null;
  expired: boolean;
  in_grace: boolean;
}

/** Exchanges a refresh token for a new one. Reuse of a replaced token revokes its family. */
export async function rotateRefreshToken(
  db: Database,
  token: string,
  secret: string,
  origin: SignInOrigin = {},
): Promise<RotationResult> {
  // The family revocation must commit even though the caller gets a refusal, so the
  // transaction returns a result instead of throwing.
  return db.transaction(async (tx) => {
    const rows = await tx.query<RefreshTokenRow>(
      `select id, user_id, family_id, revoked_at, replaced_by, expires_at <= now() as expired,
              coalesce(revoked_at > now() - make_interval(secs => $2), false) as in_grace
       from refresh_tokens where token_hash = $1 for update`,
      [hashOpaqueToken(token), REFRESH_REUSE_GRACE_SECONDS],
    );
    const row = rows.at(0);
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) {
      if (row.replaced_by) {
        if (row.in_grace) {
          const again = await currentSuccessor(tx, row, successorOf(token, secret));
          if (again) return again;
        }
        await revokeFamily(tx, row.family_id);
        return { ok: false, reason: 'reused', userId: row.user_id, familyId: row.family_id };
      }
      return { ok: false, reason: 'revoked' };
    }
    if (row.expired) return { ok: false, reason: 'expired' };
    const next = await issueRefreshToken(
      tx,
      row.user_id,
      row.family_id,
      REFRESH_TOKEN_TTL_SECONDS,
      origin,
      successorOf(token, secret),
    );
    await tx.query('update refresh_tokens set revoked_at = now(), replaced_by = $2 where id = $1', [row.id, next.id]);
    return {
      ok: true,
      userId: row.user_id,
      token: next.token,
      familyId: row.family_id,
      tokenId: next.id,
      issuedAtSeconds: next.issuedAtSeconds,
    };
  });
}

/** The successor a rotation issued, if it is still the sign-in's live token (not rotated or revoked since). */
async function currentSuccessor(
  tx: Queryable,
  row: RefreshTokenRow,
  successor: string,
): Promise<RotationResult | undefined> {
  const rows = await tx.query<{ id: string; issued_at: number }>(
    `select id, floor(extract(epoch from created_at))::float8 as issued_at from refresh_tokens
     where id = $1 and token_hash = $2 and revoked_at is null and expires_at > now()`,
    [row.replaced_by, hashOpaqueToken(successor)],
  );
  const next = rows.at(0);
  if (!next) return undefined;
  return {
    ok: true,
    userId: row.user_id,
    token: successor,
    familyId: row.family_id,
    tokenId: next.id,
    issuedAtSeconds: next.issued_at,
  };
}

/** Sign-out: ends the sign-in the token belongs to. Unknown tokens are ignored. */
export async function revokeRefreshTokenFamily(
  db: Queryable,
  token: string,
): Promise<{ userId: string; familyId: string } | undefined> {
  const rows = await db.query<{ family_id: string; user_id: string }>(
    'select family_id, user_id from refresh_tokens where token_hash = $1',
    [hashOpaqueToken(token)],
  );
  if (!rows[0]) return undefined;
  await revokeFamily(db, rows[0].family_id);
  return { userId: rows[0].user_id, familyId: rows[0].family_id };
}

/** Ends every sign-in of a user (after a password reset). */
export async function revokeAllRefreshTokens(db: Queryable, userId: string): Promise<void> {
  await db.query('update refresh_tokens set revoked_at = now() where user_id = $1 and revoked_at is null', [userId]);
}

/** Ends every sign-in of a user but one (a password change keeps the sign-in that made it). */
export async function revokeOtherRefreshTokens(
  db: Queryable,
  userId: string,
  keepFamilyId: string | undefined,
): Promise<number> {
  const rows = await db.query<{ family_id: string }>(
    `update refresh_tokens set revoked_at = now()
     where user_id = $1 and revoked_at is null and ($2::uuid is null or family_id <> $2::uuid) returning family_id`,
    [userId, keepFamilyId ?? null],
  );
  return new Set(rows.map((r) => r.family_id)).size;
}

/** Ends one sign-in of this user; false when the user has no such active sign-in. */
export async function revokeUserRefreshTokenFamily(db: Queryable, userId: string, familyId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'update refresh_tokens set revoked_at = now() where user_id = $1 and family_id = $2 and revoked_at is null returning id',
    [userId, familyId],
  );
  return rows.length > 0;
}

async function revokeFamily(db: Queryable, familyId: string): Promise<void> {
  await db.query('update refresh_tokens set revoked_at = now() where family_id = $1 and revoked_at is null', [
    familyId,
  ]);
}
