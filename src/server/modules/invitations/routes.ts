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
import { HttpError, notFound, unauthorized } from '../../http/errors';
import { EMAIL_UNVERIFIED_CODE } from '../../../contract/invitations';
import { VerificationText } from '../auth/emailVerification';
import { errorResponses } from '../../http/errorResponses';
import { recordAuditEvent } from '../audit/store';
import { findUserById } from '../users/store';
import { findMemberWorkspace } from '../workspaces/store';
import {
  answerInvitation,
  joinWorkspace,
  listInvitationsForEmail,
  listWorkspaceInvitations,
  revokeInvitation,
} from './store';

// The invitee's side (userRoutes, behind authenticate): their open invitations, matched by the
// email of the signed-in account, and the answers. Someone else's, expired, withdrawn or already
// answered invitations are all the same 404.
export const invitationRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['invitations'];

  const emailOf = async (userId: string) => {
    const user = await findUserById(app.db, userId);
    if (!user) throw unauthorized('Authentication required');
    return user.email;
  };
  // An invitation goes to an address: only an account that proved it receives mail there may
  // see or accept it (issue 31 item 5). Unproved, the list is empty and accepting is a 403.
  const verifiedEmailOf = async (userId: string) => {
    const user = await findUserById(app.db, userId);
    if (!user) throw unauthorized('Authentication required');
    return user.email_verified_at ? user.email : undefined;
  };

  app.get(
    InvitationPaths.mine,
    {
      schema: {
        tags,
        summary: 'The signed-in user’s open invitations',
        response: { 200: MyInvitationList, ...errorResponses(401) },
      },
    },
    async (request) => {
      const email = await verifiedEmailOf(request.userId);
      return { invitations: email ? await listInvitationsForEmail(app.db, email) : [] };
    },
  );

  app.post(
    InvitationPaths.accept(':invitationId'),
    {
      schema: {
        tags,
        summary: 'Accept an invitation: join the workspace with its role',
        params: InvitationParams,
        response: { 200: AcceptInvitationResult, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const email = await verifiedEmailOf(request.userId);
      if (!email) throw new HttpError(403, VerificationText.requiredForInvitations, EMAIL_UNVERIFIED_CODE);
      const workspaceId = await app.db.transaction(async (tx) => {
        const answered = await answerInvitation(tx, request.params.invitationId, email, 'accepted');
        if (!answered) throw notFound(InvitationText.notFound);
        await joinWorkspace(tx, answered.workspaceId, request.userId, answered.role);
        await recordAuditEvent(tx, {
          workspaceId: answered.workspaceId,
          action: 'member.joined',
          actorUserId: request.userId,
          target: email,
          details: { role: answered.role },
          ip: request.ip,
        });
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
      await recordAuditEvent(app.db, {
        workspaceId: answered.workspaceId,
        action: 'invitation.declined',
        actorUserId: request.userId,
        target: email,
        ip: request.ip,
      });
      return reply.status(204).send();
    },
  );
  return Promise.resolve();
};

// The workspace's side (workspaceRoutes, behind the membership guard): its open invitations, and
// withdrawing one. Owners and admins only.
export const workspaceInvitationRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['invitations'];

  app.get(
    '/invitations',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Open invitations of the workspace (owners, admins)',
        params: WorkspaceParams,
        response: { 200: WorkspaceInvitationList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ invitations: await listWorkspaceInvitations(app.db, request.params.workspaceId) }),
  );

  app.delete(
    '/invitations/:invitationId',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Withdraw an open invitation', params: WorkspaceInvitationParams },
    },
    async (request, reply) => {
      const { workspaceId, invitationId } = request.params;
      const email = await revokeInvitation(app.db, workspaceId, invitationId);
      if (!email) throw notFound(InvitationText.notFound);
      await recordAuditEvent(app.db, {
        workspaceId,
        action: 'invitation.revoked',
        actorUserId: request.userId,
        target: email,
        ip: request.ip,
      });
      return reply.status(204).send();
    },
  );
  return Promise.resolve();
};
