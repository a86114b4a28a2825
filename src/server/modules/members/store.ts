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

export async function findMember(db: Queryable, workspaceId: string, userId: string): Promise<MemberDto | undefined> {
  const rows = await db.query<MemberRow>(`${SELECT} where m.workspace_id = $1 and m.user_id = $2`, [
    workspaceId,
    userId,
  ]);
  return rows[0] && toMemberDto(rows[0]);
}

/** Removes a member who is not the owner; returns whether a row went. */
export async function removeMember(
  db: Queryable,
  workspaceId: string,
  userId: string,
): Promise<'removed' | 'owner' | 'absent'> {
  const rows = await db.query<{ role: MemberRole }>(
    'select role from workspace_members where workspace_id = $1 and user_id = $2',
    [workspaceId, userId],
  );
  if (rows.length === 0) return 'absent';
  if (rows[0].role === 'owner') return 'owner';
  await db.query('delete from workspace_members where workspace_id = $1 and user_id = $2', [workspaceId, userId]);
  return 'removed';
}

export async function workspaceAndInviterNames(
  db: Queryable,
  workspaceId: string,
  inviterId: string,
): Promise<{ workspaceName: string; inviterName: string }> {
  const [row] = await db.query<{ name: string; first_name: string; last_name: string }>(
    'select w.name, u.first_name, u.last_name from workspaces w, users u where w.id = $1 and u.id = $2',
    [workspaceId, inviterId],
  );
  return { workspaceName: row.name, inviterName: `${row.first_name} ${row.last_name}`.trim() };
}

/** The caller leaves; refused when they are the workspace's only owner (it would be left without one). */
export async function leaveWorkspace(
  db: Queryable,
  workspaceId: string,
  userId: string,
): Promise<'left' | 'sole_owner' | 'absent'> {
  const rows = await db.query<{ role: MemberRole; owners: number }>(
    `select m.role, (select count(*)::int from workspace_members o where o.workspace_id = m.workspace_id and o.role = 'owner') as owners
     from workspace_members m where m.workspace_id = $1 and m.user_id = $2`,
    [workspaceId, userId],
  );
  if (rows.length === 0) return 'absent';
  if (rows[0].role === 'owner' && rows[0].owners <= 1) return 'sole_owner';
  await db.query('delete from workspace_members where workspace_id = $1 and user_id = $2', [workspaceId, userId]);
  return 'left';
}

export type RoleChange = { outcome: 'changed'; from: MemberRole; member: MemberDto } | { outcome: 'owner' | 'absent' };

/** Sets an admin's or member's role; the owner's is not changed here. */
export async function changeMemberRole(
  db: Queryable,
  workspaceId: string,
  userId: string,
  role: 'admin' | 'member',
): Promise<RoleChange> {
  const before = await db.query<{ role: MemberRole }>(
    'select role from workspace_members where workspace_id = $1 and user_id = $2',
    [workspaceId, userId],
  );
  if (before.length === 0) return { outcome: 'absent' };
  if (before[0].role === 'owner') return { outcome: 'owner' };
  await db.query(
    `update workspace_members set role = $3 where workspace_id = $1 and user_id = $2 and role <> 'owner'`,
    [workspaceId, userId, role],
  );
  const member = await findMember(db, workspaceId, userId);
  return member ? { outcome: 'changed', from: before[0].role, member } : { outcome: 'absent' };
}
