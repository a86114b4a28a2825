import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { InviteMemberBody, MemberDto, MemberListResult, MemberParams } from '../../../contract/members';
import { WorkspaceParams } from '../../../contract/workspaces';
import { conflict, forbidden, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { workspaceInviteNotification } from '../../notifications/sources/workspaceInvite';
import { addMember, findUserIdByEmail, listMembers, removeMember, workspaceAndInviterNames } from './store';

// Members of a workspace, under the membership guard (app.ts). Everyone in the workspace sees
// the list; owners and admins add and remove people. Adding someone raises a workspace_invite
// notification for them (docs/notifications.md).
function requireManager(request: FastifyRequest): void {
  if (request.workspaceRole !== 'owner' && request.workspaceRole !== 'admin') {
    throw forbidden('Only workspace owners and admins can manage members');
  }
}

export const memberRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['members'];

  app.get(
    '/members',
    { schema: { tags, summary: 'Members of the workspace', params: WorkspaceParams, response: { 200: MemberListResult, ...errorResponses(401, 404) } } },
    async (request) => ({ members: await listMembers(app.db, request.params.workspaceId) }),
  );

  app.post(
    '/members',
    {
      schema: {
        tags,
        summary: 'Add a person with a Toolscope account to the workspace',
        params: WorkspaceParams,
        body: InviteMemberBody,
        response: { 201: MemberDto, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      requireManager(request);
      const { workspaceId } = request.params;
      const userId = await findUserIdByEmail(app.db, request.body.email);
      if (!userId) throw notFound('No Toolscope account uses that email; ask them to sign up first');
      const member = await addMember(app.db, workspaceId, userId, request.body.role);
      if (!member) throw conflict('That person is already a member of this workspace', { email: 'Already a member' });
      const names = await workspaceAndInviterNames(app.db, workspaceId, request.userId);
      await app.notifications.raiseForUser(
        userId,
        workspaceInviteNotification({
          workspaceId,
          workspaceName: names.workspaceName,
          invitedByName: names.inviterName,
          role: member.role,
          acceptUrl: `/workspace/${workspaceId}/settings`,
        }),
      );
      return reply.status(201).send(member);
    },
  );

  app.delete(
    '/members/:userId',
    { schema: { tags, summary: 'Remove a member (not the owner)', params: MemberParams } },
    async (request, reply) => {
      requireManager(request);
      const outcome = await removeMember(app.db, request.params.workspaceId, request.params.userId);
      if (outcome === 'absent') throw notFound('Member not found');
      if (outcome === 'owner') throw conflict('The owner cannot be removed from the workspace');
      return reply.status(204).send();
    },
  );
};
