import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MemberListResult, MemberParams, UpdateMemberRoleBody } from '../../../contract/members';
import { WorkspaceText } from '../../../contract/workspaces';
import { conflict, forbidden, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { listMembers } from './store';
import { changeMemberRole, roleOf } from './roleStore';

// Role changes (docs/settings.md); leaving is the invitations work's DELETE …/members/me. Owners and admins change roles; only an
// owner makes someone an owner or changes an owner's role; a workspace always keeps an owner.
export const memberRoleRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['members'];

  app.put(
    '/members/:userId',
    {
      config: { minRole: 'admin', roleRefusal: WorkspaceText.onlyManagersChangeRoles },
      schema: {
        tags,
        summary: 'Change a member’s role (at least one owner always remains)',
        params: MemberParams,
        body: UpdateMemberRoleBody,
        response: { 200: MemberListResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { workspaceId, userId } = request.params;
      const { role } = request.body;
      await app.db.transaction(async (tx) => {
        const current = await roleOf(tx, workspaceId, userId);
        if (!current) throw notFound('Member not found');
        if ((role === 'owner' || current === 'owner') && request.workspaceRole !== 'owner')
          throw forbidden(WorkspaceText.onlyOwnersGrantOwner);
        const outcome = await changeMemberRole(tx, workspaceId, userId, role);
        if (!outcome.ok && outcome.reason === 'absent') throw notFound('Member not found');
        if (!outcome.ok) throw conflict(WorkspaceText.lastOwner, { role: WorkspaceText.lastOwner });
      });
      return { members: await listMembers(app.db, workspaceId) };
    },
  );
  return Promise.resolve();
};
