import type { FastifyRequest } from 'fastify';
import type { MemberRole } from '../../contract/workspaces';
import { forbidden, notFound } from '../http/errors';

// Membership and role for routes that name their workspace in a body, a query or a stored row
// rather than in /workspaces/:workspaceId (the deployment routes of SPEC §7). Same rules as the
// workspace guard: not a member (or no such workspace) → 404 with the caller's own not-found text,
// so another workspace's ids leak nothing; a member below `minRole` → 403.
const RANK: Record<MemberRole, number> = { member: 1, admin: 2, owner: 3 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function requireWorkspaceRole(
  request: FastifyRequest,
  workspaceId: string,
  minRole: MemberRole,
  notFoundMessage = 'Workspace not found',
): Promise<MemberRole> {
  if (!UUID.test(workspaceId)) throw notFound(notFoundMessage);
  const rows = await request.server.db.query<{ role: MemberRole }>(
    'select role from workspace_members where workspace_id = $1 and user_id = $2',
    [workspaceId, request.userId],
  );
  const role = rows.at(0)?.role;
  if (!role) throw notFound(notFoundMessage);
  if (RANK[role] < RANK[minRole])
    throw forbidden(`Only the workspace's ${minRole === 'owner' ? 'owner' : 'owners and admins'} can do this`);
  request.workspaceRole = role;
  return role;
}
