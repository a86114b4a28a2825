import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AcceptInvitationResult,
  InvitationParams,
  InvitationPaths,
  InvitationText,
  MyInvitationList,
  WorkspaceInvitationList,
  WorkspaceInvitationParams,
} from '../../../contract/invitations';
import { WorkspaceParams } from '../../../contract/workspaces';
import { notFound, unauthorized } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { recordAuditEvent } from '../audit/store';
import { findUserById } from '../users/store';
import { findMemberWorkspace } from '../workspaces/store';
import { answerInvitation, joinWorkspace, listInvitationsForEmail, listWorkspaceInvitations, revokeInvitation } from './store';

// The invitee's side (userRoutes, behind authenticate): their open invitations, matched by the
// email of the signed-in account, and the answers. Someone else's, expired, withdrawn or already
// answered invitations are all the same 404.
export const invitationRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['invitations'];

  const emailOf = async (userId: string) => {
    const user = await findUserById(app.db, userId);
    if (!user) throw unauthorized('Authentication required');
    return user.email;
  };

  app.get(
    InvitationPaths.mine,
    { schema: { tags, summary: 'The signed-in user’s open invitations', response: { 200: MyInvitationList, ...errorResponses(401) } } },
    async (request) => ({ invitations: await listInvitationsForEmail(app.db, await emailOf(request.userId)) }),
  );

  app.post(
    InvitationPaths.accept(':invitationId'),
    { schema: { tags, summary: 'Accept an invitation: join the workspace with its role', params: InvitationParams, response: { 200: AcceptInvitationResult, ...errorResponses(401, 404) } } },
    async (request) => {
      const email = await emailOf(request.userId);
      const workspaceId = await app.db.transaction(async (tx) => {
        const answered = await answerInvitation(tx, request.params.invitationId, email, 'accepted');
        if (!answered) throw notFound(InvitationText.notFound);
        await joinWorkspace(tx, answered.workspaceId, request.userId, answered.role);
        await recordAuditEvent(tx, { workspaceId: answered.workspaceId, action: 'member.joined', actorUserId: request.userId, target: email, details: { role: answered.role }, ip: request.ip });
        return answered.workspaceId;
      });
      const workspace = await findMemberWorkspace(app.db, request.userId, workspaceId);
      if (!workspace) throw notFound(InvitationText.notFound);
      return { workspace };
    },
  );

  app.post(
    InvitationPaths.decline(':invitationId'),
    { schema: { tags, summary: 'Decline an invitation', params: InvitationParams } },
    async (request, reply) => {
      const email = await emailOf(request.userId);
      const answered = await answerInvitation(app.db, request.params.invitationId, email, 'declined');
      if (!answered) throw notFound(InvitationText.notFound);
      await recordAuditEvent(app.db, { workspaceId: answered.workspaceId, action: 'invitation.declined', actorUserId: request.userId, target: email, ip: request.ip });
      return reply.status(204).send();
    },
  );
};

// The workspace's side (workspaceRoutes, behind the membership guard): its open invitations, and
// withdrawing one. Owners and admins only.
export const workspaceInvitationRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['invitations'];

  app.get(
    '/invitations',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Open invitations of the workspace (owners, admins)', params: WorkspaceParams, response: { 200: WorkspaceInvitationList, ...errorResponses(401, 403, 404) } },
    },
    async (request) => ({ invitations: await listWorkspaceInvitations(app.db, request.params.workspaceId) }),
  );

  app.delete(
    '/invitations/:invitationId',
    { config: { minRole: 'admin' }, schema: { tags, summary: 'Withdraw an open invitation', params: WorkspaceInvitationParams } },
    async (request, reply) => {
      const { workspaceId, invitationId } = request.params;
      const email = await revokeInvitation(app.db, workspaceId, invitationId);
      if (!email) throw notFound(InvitationText.notFound);
      await recordAuditEvent(app.db, { workspaceId, action: 'invitation.revoked', actorUserId: request.userId, target: email, ip: request.ip });
      return reply.status(204).send();
    },
  );
};
