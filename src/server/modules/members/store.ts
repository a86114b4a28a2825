import type { Queryable } from '../../db/database';
import type { MemberDto } from '../../../contract/members';
import type { MemberRole } from '../../../contract/workspaces';

interface MemberRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: MemberRole;
  created_at: Date | string;
}

const toMemberDto = (row: MemberRow): MemberDto => ({
  userId: row.user_id,
  email: row.email,
  fullName: `${row.first_name} ${row.last_name}`.trim(),
  role: row.role,
  joinedAt: new Date(row.created_at).toISOString(),
});

const SELECT = `select m.user_id, u.email, u.first_name, u.last_name, m.role, m.created_at
  from workspace_members m join users u on u.id = m.user_id`;

export async function listMembers(db: Queryable, workspaceId: string): Promise<MemberDto[]> {
  const rows = await db.query<MemberRow>(
    `${SELECT} where m.workspace_id = $1 order by (m.role = 'owner') desc, m.created_at, u.email`,
    [workspaceId],
  );
  return rows.map(toMemberDto);
}

export async function findUserIdByEmail(db: Queryable, email: string): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>('select id from users where email = $1', [email]);
  return rows[0]?.id;
}

/** Adds the member; undefined when they already belong to the workspace (nothing changes). */
export async function addMember(db: Queryable, workspaceId: string, userId: string, role: MemberRole): Promise<MemberDto | undefined> {
  const inserted = await db.query<{ user_id: string }>(
    `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)
     on conflict (workspace_id, user_id) do nothing returning user_id`,
    [workspaceId, userId, role],
  );
  if (inserted.length === 0) return undefined;
  const rows = await db.query<MemberRow>(`${SELECT} where m.workspace_id = $1 and m.user_id = $2`, [workspaceId, userId]);
  return toMemberDto(rows[0]);
}

/** Removes a member who is not the owner; returns whether a row went. */
export async function removeMember(db: Queryable, workspaceId: string, userId: string): Promise<'removed' | 'owner' | 'absent'> {
  const rows = await db.query<{ role: MemberRole }>('select role from workspace_members where workspace_id = $1 and user_id = $2', [workspaceId, userId]);
  if (rows.length === 0) return 'absent';
  if (rows[0].role === 'owner') return 'owner';
  await db.query('delete from workspace_members where workspace_id = $1 and user_id = $2', [workspaceId, userId]);
  return 'removed';
}

export async function workspaceAndInviterNames(db: Queryable, workspaceId: string, inviterId: string): Promise<{ workspaceName: string; inviterName: string }> {
  const [row] = await db.query<{ name: string; first_name: string; last_name: string }>(
    'select w.name, u.first_name, u.last_name from workspaces w, users u where w.id = $1 and u.id = $2',
    [workspaceId, inviterId],
  );
  return { workspaceName: row.name, inviterName: `${row.first_name} ${row.last_name}`.trim() };
}
