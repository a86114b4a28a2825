import type { FastifyInstance } from 'fastify';
import { InvitationText, INVITATION_TTL_DAYS, type InvitationSent } from '../../../contract/invitations';
import { conflict } from '../../http/errors';
import { enqueueMail } from '../../mail/outbox';
import { recordAuditEvent } from '../audit/store';
import { findUserByEmail } from '../users/store';
import { workspaceAndInviterNames } from '../members/store';
import { INVITATIONS_PAGE, notifyPendingInvitations } from './notifyInvitee';
import { isMemberByEmail, upsertInvitation } from './store';

// POST …/members {email, role}: an invitation, never a membership. The answer (202) is the same
// whether the address has an account or not; so is the work: both get a mail through the outbox
// (with a sign-in or a sign-up link), and an existing account also gets the notification.
export async function inviteMember(
  app: FastifyInstance,
  invite: { workspaceId: string; email: string; role: 'admin' | 'member'; invitedBy: string; ip: string },
  linkBase: string,
): Promise<InvitationSent> {
  // Owners and admins see the member list anyway: saying "already a member" leaks nothing.
  if (await isMemberByEmail(app.db, invite.workspaceId, invite.email))
    throw conflict(InvitationText.alreadyMember, { email: 'Already a member' });
  const names = await workspaceAndInviterNames(app.db, invite.workspaceId, invite.invitedBy);
  const invitation = await app.db.transaction(async (tx) => {
    const created = await upsertInvitation(tx, invite);
    const hasAccount = (await findUserByEmail(tx, invite.email)) !== undefined;
    const link = hasAccount
      ? `${linkBase}${INVITATIONS_PAGE}`
      : `${linkBase}/register?invitation=${created.id}&email=${encodeURIComponent(invite.email)}`;
    await enqueueMail(tx, {
      to: invite.email,
      subject: `${names.inviterName} invited you to ${names.workspaceName} on Toolscope`,
      text: [
        `${names.inviterName} invited you to join the workspace "${names.workspaceName}" on Toolscope as ${invite.role}.`,
        '',
        hasAccount
          ? `Sign in to accept or decline: ${link}`
          : `Create your account with this address, then open the verification link we mail you, to accept or decline: ${link}`,
        '',
        `The invitation lapses in ${INVITATION_TTL_DAYS} days. If you do not know ${names.inviterName}, ignore this mail: nothing happens unless you accept.`,
      ].join('\n'),
    });
    await recordAuditEvent(tx, {
      workspaceId: invite.workspaceId,
      action: 'member.invited',
      actorUserId: invite.invitedBy,
      target: invite.email,
      details: { role: invite.role },
      ip: invite.ip,
    });
    return created;
  });
  // An account that has not proved the address is not told (its invitations wait for the proof).
  const user = await findUserByEmail(app.db, invite.email);
  if (user?.email_verified_at)
    await notifyPendingInvitations(app, user.id, invite.email, invitation.id).catch((err: unknown) =>
      app.log.error({ err }, 'invitation notification failed'),
    );
  return { message: InvitationText.sent(invite.email), invitation };
}
