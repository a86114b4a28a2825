jest.setTimeout(300_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, verifyEmail, type TestAccount } from '../helpers/accounts';
import { waitForMail } from '../helpers/testMailbox';
import { EMAIL_VERIFICATION } from '../../../src/server/auth/emailVerifications';

// Issue 31 item 5: an invitation to an address without an account went to whoever registered the
// address first — an admin seat for a stranger who never received the mail. Now only an account
// that opened the verification link mailed to its address sees and accepts its invitations.
describe(`invitations need a verified address (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app, { firstName: 'Grace', lastName: 'Hopper' });
  });
  afterAll(() => t.close());

  const inviteAdmin = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/members`,
      headers: bearer(owner.accessToken),
      payload: { email, role: 'admin' },
    });
  const me = async (who: TestAccount) =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(who.accessToken) })).json<{
      emailVerified: boolean;
    }>();
  const myInvitations = async (who: TestAccount) =>
    (
      await t.app.inject({ method: 'GET', url: '/api/v1/users/me/invitations', headers: bearer(who.accessToken) })
    ).json<{
      invitations: { id: string }[];
    }>().invitations;
  const accept = (who: TestAccount, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/invitations/${id}/accept`, headers: bearer(who.accessToken) });
  const verify = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token } });
  const membership = async (who: TestAccount) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${owner.workspaceId}/members`,
        headers: bearer(who.accessToken),
      })
    ).statusCode;

  it('keeps the invitation from whoever registers the address without receiving its mail', async () => {
    expect((await inviteAdmin('cto@example.com')).statusCode).toBe(202);
    const [invitation] = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${owner.workspaceId}/invitations`,
        headers: bearer(owner.accessToken),
      })
    ).json<{ invitations: { id: string }[] }>().invitations;
    // The squatter signs up with the invited address first and never opens its mailbox.
    const squatter = await registerAccount(t.app, { email: 'cto@example.com' });
    expect((await me(squatter)).emailVerified).toBe(false);
    expect(await myInvitations(squatter)).toEqual([]);
    // Even with the invitation's id (say, seen in a forwarded link) accepting is refused.
    const refused = await accept(squatter, invitation.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: 'Verify your email address to accept invitations. Open the link we mailed you.',
      code: 'email_unverified',
    });
    expect(await membership(squatter)).toBe(404);
    const notifications = await t.app.inject({
      method: 'GET',
      url: '/api/v1/notifications',
      headers: bearer(squatter.accessToken),
    });
    expect(notifications.json<{ notifications: unknown[] }>().notifications).toEqual([]);
  });

  it('lets the owner of the address accept once they open the link mailed to it', async () => {
    const invitee = await registerAccount(t.app, { email: 'new-hire@example.com' });
    expect((await inviteAdmin(invitee.email)).statusCode).toBe(202);
    expect(await myInvitations(invitee)).toEqual([]);
    const [, token] = await waitForMail(invitee.email, /\/verify-email\?token=([\w-]+)/);
    const verified = await verify(token);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: 'Your email address is verified.' });
    expect((await me(invitee)).emailVerified).toBe(true);
    // One use: the same link again is refused like an unknown one.
    expect((await verify(token)).statusCode).toBe(400);
    expect((await verify('not-a-token')).json()).toMatchObject({
      message: 'This verification link is invalid or has expired',
    });
    const [invitation] = await myInvitations(invitee);
    expect((await accept(invitee, invitation.id)).statusCode).toBe(200);
    expect(await membership(invitee)).toBe(200);
  });

  it('mails the link again on request, a few times an hour, and not once verified', async () => {
    const forgetful = await registerAccount(t.app);
    const again = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/users/me/verification-email',
        headers: bearer(forgetful.accessToken),
      });
    const sent = await again();
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ message: `We sent a verification link to ${forgetful.email}.` });
    // Sign-up sent the first; the allowance is per hour.
    for (let i = 2; i < EMAIL_VERIFICATION.maxPerHour; i++) expect((await again()).statusCode).toBe(202);
    const tooMany = await again();
    expect(tooMany.statusCode).toBe(429);
    expect(Number(tooMany.headers['retry-after'])).toBeGreaterThan(0);
    await verifyEmail(t.app, forgetful);
    expect((await again()).statusCode).toBe(409);
  });
});
