import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MemberDto, MemberListResult, MemberParams } from '../../../contract/members';
import { InvitationSent, InvitationText, InviteMemberBody } from '../../../contract/invitations';
import { WorkspaceParams } from '../../../contract/workspaces';
import { conflict, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { createOutboxDispatcher } from '../../mail/dispatcher';
import { revokeWorkspaceStreams } from '../../events/accessRevocation';
import { recordAuditEvent } from '../audit/store';
import { inviteMember } from '../invitations/inviteMember';
import { changeMemberRole, findMember, leaveWorkspace, listMembers, removeMember } from './store';

// Members of a workspace, under the membership guard (app.ts). Everyone in the workspace sees the
// list; owners and admins invite (an invitation the invitee accepts: modules/invitations), remove
// and change roles (config.minRole, enforced by the guard); anyone may leave unless they are the
// only owner. Whoever leaves or is removed loses their open live streams at once.
const ChangeRoleBody = z.object({ role: z.enum(['admin', 'member'], { error: 'Role must be admin or member' }) });

export const memberRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['members'];
  const mail = createOutboxDispatcher(app);
  // Links in mail come from configuration, never from the request's Host header.
  const linkBase = () => app.config.publicUrl ?? `http://localhost:${app.config.port}`;

  app.get(
    '/members',
    {
      schema: {
        tags,
        summary: 'Members of the workspace',
        params: WorkspaceParams,
        response: { 200: MemberListResult, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ members: await listMembers(app.db, request.params.workspaceId) }),
  );

  app.post(
    '/members',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary:
          'Invite a person by email (202, the same answer whether or not the address has an account); they join when they accept',
        params: WorkspaceParams,
        body: InviteMemberBody,
        response: { 202: InvitationSent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const sent = await inviteMember(
        app,
        {
          workspaceId: request.params.workspaceId,
          email: request.body.email,
          role: request.body.role,
          invitedBy: request.userId,
          ip: request.ip,
        },
        linkBase(),
      );
      mail.kick();
      return reply.status(202).send(sent);
    },
  );

  // Static before parametric: /members/me is the caller leaving, /members/{userId} an admin removing.
  app.delete(
    '/members/me',
    {
      config: { minRole: 'member' },
      schema: { tags, summary: 'Leave the workspace (not as its only owner)', params: WorkspaceParams },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const outcome = await leaveWorkspace(app.db, workspaceId, request.userId);
      if (outcome === 'sole_owner') throw conflict(InvitationText.soleOwner);
      if (outcome === 'absent') throw notFound('Workspace not found');
      await recordAuditEvent(app.db, {
        workspaceId,
        action: 'member.left',
        actorUserId: request.userId,
        ip: request.ip,
      });
      revokeWorkspaceStreams(app, workspaceId, request.userId, 'left');
      return reply.status(204).send();
    },
  );

  app.delete(
    '/members/:userId',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Remove a member (not the owner)', params: MemberParams },
    },
    async (request, reply) => {
      const { workspaceId, userId } = request.params;
      const removed = await findMember(app.db, workspaceId, userId);
      const outcome = await removeMember(app.db, workspaceId, userId);
      if (outcome === 'absent') throw notFound('Member not found');
      if (outcome === 'owner') throw conflict('The owner cannot be removed from the workspace');
      await recordAuditEvent(app.db, {
        workspaceId,
        action: 'member.removed',
        actorUserId: request.userId,
        target: removed?.email ?? userId,
        ip: request.ip,
      });
      revokeWorkspaceStreams(app, workspaceId, userId, 'removed');
      return reply.status(204).send();
    },
  );

  app.patch(
    '/members/:userId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: "Change a member's role (admin or member; the owner's role does not change here)",
        params: MemberParams,
        body: ChangeRoleBody,
        response: { 200: MemberDto, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { workspaceId, userId } = request.params;
      const change = await changeMemberRole(app.db, workspaceId, userId, request.body.role);
      if (change.outcome === 'absent') throw notFound('Member not found');
      if (change.outcome !== 'changed') throw conflict("The owner's role cannot be changed");
      if (change.from !== request.body.role) {
        await recordAuditEvent(app.db, {
          workspaceId,
          action: 'member.role_changed',
          actorUserId: request.userId,
          target: change.member.email,
          details: { from: change.from, to: request.body.role },
          ip: request.ip,
        });
      }
      return change.member;
    },
  );
  return Promise.resolve();
};
