import { randomUUID } from 'node:crypto';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../contract/constants';
import type { Database, Queryable } from '../db/database';
import { hashOpaqueToken, newOpaqueToken } from './opaqueToken';

// Refresh tokens are opaque, stored hashed, and single-use: every refresh replaces the token
// with a new one of the same family (one family = one sign-in). Presenting a token that was
// already replaced means two parties hold it (a thief and the user), so the whole family is
// revoked and both must sign in again (OAuth 2.0 Security BCP, refresh token rotation).

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
): Promise<IssuedRefreshToken> {
  const token = newOpaqueToken();
  const rows = await db.query<{ id: string }>(
    `insert into refresh_tokens (user_id, family_id, token_hash, expires_at)
     values ($1, $2, $3, now() + make_interval(secs => $4)) returning id`,
    [userId, familyId, hashOpaqueToken(token), ttlSeconds],
  );
  return { id: rows[0].id, token, familyId };
}

export type RotationResult =
  | { ok: true; userId: string; token: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' };

interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  revoked_at: Date | null;
  replaced_by: string | null;
  expired: boolean;
}

/** Exchanges a refresh token for a new one. Reuse of a replaced token revokes its family. */
export async function rotateRefreshToken(db: Database, token: string): Promise<RotationResult> {
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
        return { ok: false, reason: 'reused' };
      }
      return { ok: false, reason: 'revoked' };
    }
    if (row.expired) return { ok: false, reason: 'expired' };
    const next = await issueRefreshToken(tx, row.user_id, row.family_id);
    await tx.query('update refresh_tokens set revoked_at = now(), replaced_by = $2 where id = $1', [row.id, next.id]);
    return { ok: true, userId: row.user_id, token: next.token };
  });
}

/** Sign-out: ends the sign-in the token belongs to. Unknown tokens are ignored. */
export async function revokeRefreshTokenFamily(db: Queryable, token: string): Promise<void> {
  const rows = await db.query<{ family_id: string }>('select family_id from refresh_tokens where token_hash = $1', [hashOpaqueToken(token)]);
  if (rows[0]) await revokeFamily(db, rows[0].family_id);
}

/** Ends every sign-in of a user (after a password reset). */
export async function revokeAllRefreshTokens(db: Queryable, userId: string): Promise<void> {
  await db.query('update refresh_tokens set revoked_at = now() where user_id = $1 and revoked_at is null', [userId]);
}

async function revokeFamily(db: Queryable, familyId: string): Promise<void> {
  await db.query('update refresh_tokens set revoked_at = now() where family_id = $1 and revoked_at is null', [familyId]);
}
