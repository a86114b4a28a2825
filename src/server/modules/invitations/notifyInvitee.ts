import type { FastifyInstance } from 'fastify';
import { workspaceInviteNotification } from '../../notifications/sources/workspaceInvite';
import { listInvitationsForEmail } from './store';

/** Where an invitee answers their invitations in the SPA (the settings issue builds the page). */
export const INVITATIONS_PAGE = '/invitations';

/**
 * Raises the workspace_invite notification of each open invitation to this address for the
 * account: at invitation time for an existing account, and at sign-up for an address that had
 * none (its invitations were kept by email).
 */
export async function notifyPendingInvitations(
  app: FastifyInstance,
  userId: string,
  email: string,
  onlyInvitationId?: string,
): Promise<void> {
  for (const invitation of await listInvitationsForEmail(app.db, email)) {
    if (onlyInvitationId && invitation.id !== onlyInvitationId) continue;
    await app.notifications.raiseForUser(
      userId,
      workspaceInviteNotification({
        workspaceId: invitation.workspaceId,
        workspaceName: invitation.workspaceName,
        invitedByName: invitation.invitedByName,
        role: invitation.role,
        acceptUrl: INVITATIONS_PAGE,
        invitationId: invitation.id,
      }),
    );
  }
}
