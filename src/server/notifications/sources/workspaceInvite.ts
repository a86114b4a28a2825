import type { UserRaiseInput } from '../NotificationService';

export interface WorkspaceInvitation {
  workspaceId: string;
  workspaceName: string;
  invitedByName: string;
  role: string;
  /** Where the invitee accepts (the invite flow knows its own page). */
  acceptUrl: string;
  invitationId?: string;
}

/**
 * workspace_invite: the invitee is not a member yet, so the members/invite flow calls
 * `app.notifications.raiseForUser(inviteeUserId, workspaceInviteNotification(invitation))`; it is
 * an account-level notification (workspaceId null), visible whichever workspace the invitee is in.
 */
export function workspaceInviteNotification(invitation: WorkspaceInvitation): UserRaiseInput {
  return {
    workspaceId: null,
    type: 'workspace_invite',
    severity: 'info',
    title: 'Workspace Invitation',
    message: `${invitation.invitedByName} invited you to join ${invitation.workspaceName} as ${invitation.role}`,
    actionUrl: invitation.acceptUrl,
    metadata: {
      workspaceId: invitation.workspaceId,
      workspaceName: invitation.workspaceName,
      role: invitation.role,
      ...(invitation.invitationId ? { invitationId: invitation.invitationId } : {}),
    },
    groupKey: invitation.invitationId
      ? `invitation:${invitation.invitationId}`
      : `invitation:${invitation.workspaceId}`,
    repeat: 'once',
  };
}
