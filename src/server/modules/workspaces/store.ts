import { leaveTombstone, purgeWorkspaceRows } from '../../data/retention/workspacePurge';
import type { Queryable } from '../../db/database';
import type { MemberRole, WorkspaceDto, WorkspaceType } from '../../../contract/workspaces';

interface WorkspaceRow {
  id: string;
  name: string;
  description: string;
  workspace_type: WorkspaceType;
  role: MemberRole;
  created_at: Date;
  require_platform_key: boolean;
}

const SELECT_MEMBER_WORKSPACE = `select w.id, w.name, w.description, w.workspace_type, m.role, w.created_at, w.require_platform_key
  from workspaces w join workspace_members m on m.workspace_id = w.id`;

function toWorkspaceDto(row: WorkspaceRow): WorkspaceDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    workspaceType: row.workspace_type,
    role: row.role,
    createdAt: new Date(row.created_at).toISOString(),
    requirePlatformKey: row.require_platform_key,
  };
}

/** The workspaces the user is a member of, oldest first (the personal one leads). */
export async function listMemberWorkspaces(db: Queryable, userId: string): Promise<WorkspaceDto[]> {
  const rows = await db.query<WorkspaceRow>(
    `${SELECT_MEMBER_WORKSPACE} where m.user_id = $1 order by w.created_at, w.id`,
    [userId],
  );
  return rows.map(toWorkspaceDto);
}

export async function findMemberWorkspace(
  db: Queryable,
  userId: string,
  workspaceId: string,
): Promise<WorkspaceDto | undefined> {
  const rows = await db.query<WorkspaceRow>(`${SELECT_MEMBER_WORKSPACE} where m.user_id = $1 and w.id = $2`, [
    userId,
    workspaceId,
  ]);
  return rows[0] && toWorkspaceDto(rows[0]);
}

export interface NewWorkspace {
  ownerId: string;
  name: string;
  description: string;
  workspaceType: WorkspaceType;
}

/** Creates the workspace with its owner as the first member. Call inside a transaction. */
export async function insertWorkspace(db: Queryable, workspace: NewWorkspace): Promise<WorkspaceDto> {
  const rows = await db.query<Omit<WorkspaceRow, 'role'>>(
    `insert into workspaces (name, description, workspace_type, owner_id) values ($1, $2, $3, $4)
     returning id, name, description, workspace_type, created_at, require_platform_key`,
    [workspace.name, workspace.description, workspace.workspaceType, workspace.ownerId],
  );
  await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    rows[0].id,
    workspace.ownerId,
  ]);
  return toWorkspaceDto({ ...rows[0], role: 'owner' });
}

/** Workspaces the user owns: what plan limits count. */
export async function countOwnedWorkspaces(db: Queryable, userId: string): Promise<number> {
  const rows = await db.query<{ count: number }>('select count(*)::int as count from workspaces where owner_id = $1', [
    userId,
  ]);
  return rows[0].count;
}

/** The name of the workspace made at sign-up. */
export function personalWorkspaceName(firstName: string): string {
  return `${firstName}'s Workspace`;
}

/** Whether agents must present a platform key at the proxy (docs/access.md). */
export async function setRequirePlatformKey(db: Queryable, workspaceId: string, required: boolean): Promise<void> {
  await db.query('update workspaces set require_platform_key = $2 where id = $1', [workspaceId, required]);
}

/** Renames or re-describes a workspace; returns it as the caller sees it. */
export async function updateWorkspace(
  db: Queryable,
  userId: string,
  workspaceId: string,
  changes: { name?: string; description?: string },
): Promise<WorkspaceDto | undefined> {
  await db.query(
    `update workspaces set name = coalesce($2, name), description = coalesce($3, description), updated_at = now() where id = $1`,
    [workspaceId, changes.name ?? null, changes.description ?? null],
  );
  return findMemberWorkspace(db, userId, workspaceId);
}

/**
 * Deletes a workspace with everything in it (servers, schemas, sessions, calls, members,
 * notifications cascade). Returns the proxy keys and ids of its servers so the caller can drop
 * them from in-memory caches. Call inside a transaction.
 */
export async function deleteWorkspace(
  db: Queryable,
  workspaceId: string,
): Promise<{ id: string; proxy_key: string }[]> {
  const servers = await db.query<{ id: string; proxy_key: string }>(
    'select id, proxy_key from servers where workspace_id = $1',
    [workspaceId],
  );
  // Tables without a foreign key to the workspace (kept off the recording hot path) are cleared here;
  // the tombstone has the expiry job clear what a batch in flight writes after (workspacePurge.ts).
  await purgeWorkspaceRows(db, workspaceId);
  await db.query('delete from workspaces where id = $1', [workspaceId]);
  await leaveTombstone(db, workspaceId);
  return servers;
}
