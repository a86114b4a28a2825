import type { Queryable } from '../../db/database';
import type { SignInDto } from '../../../contract/account';
import { deviceName } from './deviceName';

// Active sign-ins are refresh-token families with at least one live token. The family's first
// token says when the sign-in began; its newest token says when it was last used and from where
// (every refresh issues one), so no separate table has to be kept in step with the tokens.
interface SignInRow {
  family_id: string;
  created_at: Date | string;
  last_used_at: Date | string;
  user_agent: string | null;
  ip: string | null;
}

export async function listActiveSignIns(
  db: Queryable,
  userId: string,
  currentSignInId: string | undefined,
): Promise<SignInDto[]> {
  const rows = await db.query<SignInRow>(
    `select f.family_id, f.created_at, f.last_used_at, latest.user_agent, latest.ip
     from (
       select family_id, min(created_at) as created_at, max(created_at) as last_used_at
       from refresh_tokens where user_id = $1
       group by family_id
       having bool_or(revoked_at is null and expires_at > now())
     ) f
     cross join lateral (
       select user_agent, ip from refresh_tokens t
       where t.user_id = $1 and t.family_id = f.family_id order by t.created_at desc limit 1
     ) latest
     order by f.last_used_at desc`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.family_id,
    device: deviceName(row.user_agent),
    userAgent: row.user_agent,
    ip: row.ip,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: new Date(row.last_used_at).toISOString(),
    current: row.family_id === currentSignInId,
  }));
}
