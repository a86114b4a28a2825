import { randomUUID } from 'node:crypto';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../contract/constants';
import type { Database, Queryable } from '../db/database';
import { hashOpaqueToken, newOpaqueToken } from './opaqueToken';

// Refresh tokens are opaque, stored hashed, and single-use: every refresh replaces the token
// with a new one of the same family (one family = one sign-in). Presenting a token that was
// already replaced means two parties hold it (a thief and the user), so the whole family is
// revoked and both must sign in again (OAuth 2.0 Security BCP, refresh token rotation).

/** Where a sign-in comes from, shown in the list of active sign-ins (docs/settings.md). */
export interface SignInOrigin {
  userAgent?: string | null;
  ip?: string | null;
}

export interface IssuedRefreshToken {
  id: string;
  token: string;
  familyId: string;
}

export async function issueRefreshToken(
  db: Queryable,
  userId: string,
  familyId: string = randomUUID(),
  ttlSeconds = REFRESH_TOKEN_TTL_SECONDS,
  origin: SignInOrigin = {},
): Promise<IssuedRefreshToken> {
  const token = newOpaqueToken();
  const rows = await db.query<{ id: string }>(
    `insert into refresh_tokens (user_id, family_id, token_hash, expires_at, user_agent, ip)
     values ($1, $2, $3, now() + make_interval(secs => $4), $5, $6) returning id`,
    [userId, familyId, hashOpaqueToken(token), ttlSeconds, origin.userAgent?.slice(0, 512) ?? null, origin.ip?.slice(0, 64) ?? null],
  );
  return { id: rows[0].id, token, familyId };
}

export type RotationResult =
  | { ok: true; userId: string; token: string; familyId: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' }
  | { ok: false; reason: 'reused'; userId: string; familyId: string };

interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  revoked_at: Date | null;
  replaced_by: string | null;
  expired: boolean;
}

/** Exchanges a refresh token for a new one. Reuse of a replaced token revokes its family. */
export async function rotateRefreshToken(db: Database, token: string, origin: SignInOrigin = {}): Promise<RotationResult> {
  // The family revocation must commit even though the caller gets a refusal, so the
  // transaction returns a result instead of throwing.
  return db.transaction(async (tx) => {
    const rows = await tx.query<RefreshTokenRow>(
      `select id, user_id, family_id, revoked_at, replaced_by, expires_at <= now() as expired
       from refresh_tokens where token_hash = $1 for update`,
      [hashOpaqueToken(token)],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) {
      if (row.replaced_by) {
        await revokeFamily(tx, row.family_id);
        return { ok: false, reason: 'reused', userId: row.user_id, familyId: row.family_id };
      }
      return { ok: false, reason: 'revoked' };
    }
    if (row.expired) return { ok: false, reason: 'expired' };
    const next = await issueRefreshToken(tx, row.user_id, row.family_id, REFRESH_TOKEN_TTL_SECONDS, origin);
    await tx.query('update refresh_tokens set revoked_at = now(), replaced_by = $2 where id = $1', [row.id, next.id]);
    return { ok: true, userId: row.user_id, token: next.token, familyId: row.family_id };
  });
}

/** Sign-out: ends the sign-in the token belongs to. Unknown tokens are ignored. */
export async function revokeRefreshTokenFamily(db: Queryable, token: string): Promise<{ userId: string; familyId: string } | undefined> {
  const rows = await db.query<{ family_id: string; user_id: string }>('select family_id, user_id from refresh_tokens where token_hash = $1', [hashOpaqueToken(token)]);
  if (!rows[0]) return undefined;
  await revokeFamily(db, rows[0].family_id);
  return { userId: rows[0].user_id, familyId: rows[0].family_id };
}

/** Ends every sign-in of a user (after a password reset). */
export async function revokeAllRefreshTokens(db: Queryable, userId: string): Promise<void> {
  await db.query('update refresh_tokens set revoked_at = now() where user_id = $1 and revoked_at is null', [userId]);
}

/** Ends every sign-in of a user but one (a password change keeps the sign-in that made it). */
export async function revokeOtherRefreshTokens(db: Queryable, userId: string, keepFamilyId: string | undefined): Promise<number> {
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
  await db.query('update refresh_tokens set revoked_at = now() where family_id = $1 and revoked_at is null', [familyId]);
}
