import type { Queryable } from '../../db/database';
import type { MemberRole } from '../../../contract/workspaces';

// Role changes and leaving: the one rule is that a workspace always keeps an owner. The rows of
// the workspace's members are locked first, so two owners demoting each other at once cannot
// both succeed. workspaces.owner_id (whose plan the workspace counts against) follows the owners:
// when its user stops being an owner, the longest-standing remaining owner takes it.

export type RoleChangeOutcome = { ok: true; previous: MemberRole } | { ok: false; reason: 'absent' | 'last_owner' };

async function lockMembers(db: Queryable, workspaceId: string): Promise<{ user_id: string; role: MemberRole }[]> {
  return db.query<{ user_id: string; role: MemberRole }>(
    'select user_id, role from workspace_members where workspace_id = $1 order by created_at for update',
    [workspaceId],
  );
}

async function moveBillingOwnerIfNeeded(db: Queryable, workspaceId: string): Promise<void> {
  await db.query(
    `update workspaces w set owner_id = (
       select m.user_id from workspace_members m where m.workspace_id = w.id and m.role = 'owner' order by m.created_at limit 1)
     where w.id = $1 and not exists (
       select 1 from workspace_members m where m.workspace_id = w.id and m.user_id = w.owner_id and m.role = 'owner')
     and exists (select 1 from workspace_members m where m.workspace_id = w.id and m.role = 'owner')`,
    [workspaceId],
  );
}

/** Call inside a transaction. */
export async function changeMemberRole(
  db: Queryable,
  workspaceId: string,
  userId: string,
  role: MemberRole,
): Promise<RoleChangeOutcome> {
  const members = await lockMembers(db, workspaceId);
  const target = members.find((m) => m.user_id === userId);
  if (!target) return { ok: false, reason: 'absent' };
  const owners = members.filter((m) => m.role === 'owner').length;
  if (target.role === 'owner' && role !== 'owner' && owners <= 1) return { ok: false, reason: 'last_owner' };
  if (target.role !== role) {
    await db.query('update workspace_members set role = $3 where workspace_id = $1 and user_id = $2', [
      workspaceId,
      userId,
      role,
    ]);
    await moveBillingOwnerIfNeeded(db, workspaceId);
  }
  return { ok: true, previous: target.role };
}

export async function roleOf(db: Queryable, workspaceId: string, userId: string): Promise<MemberRole | undefined> {
  const rows = await db.query<{ role: MemberRole }>(
    'select role from workspace_members where workspace_id = $1 and user_id = $2',
    [workspaceId, userId],
  );
  return rows[0]?.role;
}
