import type { Queryable } from '../../db/database';
import { createEmailVerification } from '../../auth/emailVerifications';
import { enqueueMail } from '../../mail/outbox';

// The mail that proves an address (issue 31 item 5): sent at sign-up and on "send the link
// again". Until the link is opened the account cannot see or accept invitations to its address:
// an invitation belongs to whoever receives mail there, not to whoever registered it first.
export const VerificationText = {
  verified: 'Your email address is verified.',
  invalidToken: 'This verification link is invalid or has expired',
  sent: (email: string) => `We sent a verification link to ${email}.`,
  alreadyVerified: 'Your email address is already verified.',
  tooMany: 'A verification link was sent several times in the last hour. Use the latest one, or try again later.',
  requiredForInvitations: 'Verify your email address to accept invitations. Open the link we mailed you.',
} as const;

export const VERIFY_EMAIL_PAGE = '/verify-email';

/** Queues the verification mail; false when the hourly allowance of links is spent. */
export async function queueVerificationMail(
  tx: Queryable,
  user: { id: string; email: string; firstName: string },
  linkBase: string,
): Promise<boolean> {
  const token = await createEmailVerification(tx, user.id, user.email);
  if (!token) return false;
  const link = `${linkBase}${VERIFY_EMAIL_PAGE}?token=${encodeURIComponent(token)}`;
  await enqueueMail(tx, {
    to: user.email,
    subject: 'Verify your email address for Toolscope',
    text: [
      `Hello ${user.firstName},`,
      '',
      'Open this link within a day to verify the address of your Toolscope account:',
      link,
      '',
      'Until you do, invitations to workspaces sent to this address cannot be accepted.',
      'If you did not sign up for Toolscope, ignore this mail.',
    ].join('\n'),
  });
  return true;
}
