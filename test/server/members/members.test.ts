jest.setTimeout(300_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, verifyEmail, type TestAccount } from '../helpers/accounts';
import { addToWorkspace } from '../helpers/workspaceMembers';

// Issue 16 item 4: nobody joins a workspace without saying yes. Inviting answers 202 alike for
// addresses with and without an account; the invitee lists, accepts or declines; an address with
// no account finds its invitation after signing up; anyone but a sole owner may leave.
describe(`workspace members and invitations (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let invitee: TestAccount;
  let outsider: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app, { firstName: 'Grace', lastName: 'Hopper' });
    invitee = await registerAccount(t.app, { firstName: 'Alan', lastName: 'Turing' });
    outsider = await registerAccount(t.app);
    // Invitations are for proved addresses (verifiedInvitations.test.ts): these two opened their link.
    await verifyEmail(t.app, invitee);
    await verifyEmail(t.app, outsider);
  });
  afterAll(() => t.close());

  const ws = () => `/api/v1/workspaces/${owner.workspaceId}`;
  const members = (who: TestAccount, workspaceId = owner.workspaceId) =>
    t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}/members`, headers: bearer(who.accessToken) });
  const invite = (who: TestAccount, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `${ws()}/members`,
      headers: bearer(who.accessToken),
      payload: payload as object,
    });
  const remove = (who: TestAccount, userId: string) =>
    t.app.inject({ method: 'DELETE', url: `${ws()}/members/${userId}`, headers: bearer(who.accessToken) });
  const leave = (who: TestAccount, workspaceId = owner.workspaceId) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${workspaceId}/members/me`,
      headers: bearer(who.accessToken),
    });
  const myInvitations = async (who: TestAccount) =>
    (
      await t.app.inject({ method: 'GET', url: '/api/v1/users/me/invitations', headers: bearer(who.accessToken) })
    ).json().invitations as {
      id: string;
      workspaceId: string;
      workspaceName: string;
      role: string;
      invitedByName: string;
    }[];
  const answer = (who: TestAccount, id: string, verb: 'accept' | 'decline') =>
    t.app.inject({ method: 'POST', url: `/api/v1/invitations/${id}/${verb}`, headers: bearer(who.accessToken) });
  const notificationsOf = async (who: TestAccount) =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: bearer(who.accessToken) })).json()
      .notifications as {
      type: string;
      message: string;
      actionUrl: string | null;
    }[];
  const outboxTo = async (email: string) =>
    t.database.db.query<{ subject: string; body: string }>(
      "select subject, body from outbox where recipient = $1 and subject like '%invited you%'",
      [email],
    );

  it('lists the owner of a fresh workspace', async () => {
    const res = await members(owner);
    expect(res.statusCode).toBe(200);
    expect(res.json().members).toEqual([
      expect.objectContaining({ userId: owner.user.id, role: 'owner', fullName: 'Grace Hopper' }),
    ]);
  });

  it('answers 202 alike for an address with an account and one without, and adds nobody', async () => {
    const known = await invite(owner, { email: invitee.email.toUpperCase(), role: 'member' });
    const unknown = await invite(owner, { email: 'no-account-yet@example.com', role: 'admin' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    const shape = (body: { message: string; invitation: Record<string, unknown> }) => ({
      keys: Object.keys(body).sort(),
      invitationKeys: Object.keys(body.invitation).sort(),
    });
    expect(shape(known.json())).toEqual(shape(unknown.json()));
    expect(known.json()).toMatchObject({
      message: `Invitation sent to ${invitee.email}`,
      invitation: { email: invitee.email, role: 'member' },
    });
    expect(known.json()).not.toHaveProperty('fullName');
    // Nobody joined: the list is still the owner alone.
    expect((await members(owner)).json().members).toHaveLength(1);
    expect((await members(invitee)).statusCode).toBe(404);
    // Both addresses get a mail through the outbox (the work is the same either way).
    const [mailToAccount] = await outboxTo(invitee.email);
    const [mailToStranger] = await outboxTo('no-account-yet@example.com');
    expect(mailToAccount.subject).toBe("Grace Hopper invited you to Grace's Workspace on Toolscope");
    expect(mailToStranger.subject).toBe(mailToAccount.subject);
  });

  it('tells the invitee with a notification and lists the invitation for them only', async () => {
    const theirs = await notificationsOf(invitee);
    expect(theirs).toEqual([
      expect.objectContaining({
        type: 'workspace_invite',
        message: `Grace Hopper invited you to join Grace's Workspace as member`,
        actionUrl: '/invitations',
      }),
    ]);
    const listed = await myInvitations(invitee);
    expect(listed).toEqual([
      expect.objectContaining({
        workspaceId: owner.workspaceId,
        workspaceName: "Grace's Workspace",
        role: 'member',
        invitedByName: 'Grace Hopper',
      }),
    ]);
    expect(await myInvitations(outsider)).toEqual([]);
    // Someone else cannot answer it: the same 404 as an unknown id.
    expect((await answer(outsider, listed[0].id, 'accept')).statusCode).toBe(404);
    expect((await members(outsider)).statusCode).toBe(404);
  });

  it('shows owners and admins the open invitations', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${ws()}/invitations`, headers: bearer(owner.accessToken) });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .invitations.map((i: { email: string }) => i.email)
        .sort(),
    ).toEqual([invitee.email, 'no-account-yet@example.com'].sort());
  });

  it('joins the workspace when the invitee accepts, with the invited role', async () => {
    const [invitation] = await myInvitations(invitee);
    const res = await answer(invitee, invitation.id, 'accept');
    expect(res.statusCode).toBe(200);
    expect(res.json().workspace).toMatchObject({ id: owner.workspaceId, role: 'member' });
    expect((await members(invitee)).statusCode).toBe(200);
    expect(await myInvitations(invitee)).toEqual([]);
    // Answered once: a second accept is a 404 and changes nothing.
    expect((await answer(invitee, invitation.id, 'accept')).statusCode).toBe(404);
  });

  it('refuses to invite an existing member (409) and lets only owners and admins invite', async () => {
    expect((await invite(owner, { email: invitee.email })).statusCode).toBe(409);
    const asMember = await invite(invitee, { email: outsider.email });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json()).toEqual({ message: 'Only workspace owners and admins can do this', code: 'forbidden' });
    expect((await remove(invitee, owner.user.id)).statusCode).toBe(403);
    expect(await myInvitations(outsider)).toEqual([]);
  });

  it('keeps nothing of a declined invitation', async () => {
    expect((await invite(owner, { email: outsider.email })).statusCode).toBe(202);
    const [invitation] = await myInvitations(outsider);
    expect((await answer(outsider, invitation.id, 'decline')).statusCode).toBe(204);
    expect(await myInvitations(outsider)).toEqual([]);
    expect((await members(outsider)).statusCode).toBe(404);
  });

  it('keeps an invitation to an address with no account and attaches it once the address is verified', async () => {
    const newcomer = await registerAccount(t.app, { email: 'no-account-yet@example.com' });
    expect(await myInvitations(newcomer)).toEqual([]);
    expect(await notificationsOf(newcomer)).toEqual([]);
    await verifyEmail(t.app, newcomer);
    const listed = await myInvitations(newcomer);
    expect(listed).toEqual([expect.objectContaining({ workspaceId: owner.workspaceId, role: 'admin' })]);
    expect(await notificationsOf(newcomer)).toEqual([
      expect.objectContaining({ type: 'workspace_invite', actionUrl: '/invitations' }),
    ]);
    expect((await answer(newcomer, listed[0].id, 'accept')).json().workspace).toMatchObject({ role: 'admin' });
  });

  it('answers 400 for a malformed address or the owner role, and changes nothing', async () => {
    expect((await invite(owner, { email: 'not an email' })).statusCode).toBe(400);
    expect((await invite(owner, { email: 'x@example.com', role: 'owner' })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: `${ws()}/invitations`, headers: bearer(owner.accessToken) })).json()
        .invitations,
    ).toEqual([]);
  });

  it('lets a member leave, but not the only owner', async () => {
    const soleOwner = await leave(owner);
    expect(soleOwner.statusCode).toBe(409);
    expect(soleOwner.json().message).toBe(
      'You are the only owner of this workspace; delete it or make someone else owner first',
    );
    expect((await leave(invitee)).statusCode).toBe(204);
    expect((await members(invitee)).statusCode).toBe(404);
    // Not a member any more: the guard's 404.
    expect((await leave(invitee)).statusCode).toBe(404);
  });

  it('changes roles (owners, admins), never the owner’s, and records it in the audit log', async () => {
    const carol = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, carol, 'member');
    const promote = await t.app.inject({
      method: 'PATCH',
      url: `${ws()}/members/${carol.user.id}`,
      headers: bearer(owner.accessToken),
      payload: { role: 'admin' },
    });
    expect(promote.statusCode).toBe(200);
    expect(promote.json()).toMatchObject({ userId: carol.user.id, role: 'admin' });
    const ownerRole = await t.app.inject({
      method: 'PATCH',
      url: `${ws()}/members/${owner.user.id}`,
      headers: bearer(carol.accessToken),
      payload: { role: 'member' },
    });
    expect(ownerRole.statusCode).toBe(409);
    const audit = await t.app.inject({ method: 'GET', url: `${ws()}/audit`, headers: bearer(carol.accessToken) });
    expect(audit.statusCode).toBe(200);
    const actions = (audit.json().events as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'member.role_changed',
        'member.left',
        'member.joined',
        'member.invited',
        'invitation.declined',
      ]),
    );
  });

  it('never removes the owner, removes a member, and 404s for a stranger', async () => {
    const dave = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, dave, 'member');
    expect((await remove(owner, owner.user.id)).statusCode).toBe(409);
    expect((await remove(owner, outsider.user.id)).statusCode).toBe(404);
    expect((await remove(owner, dave.user.id)).statusCode).toBe(204);
    expect((await members(dave)).statusCode).toBe(404);
  });

  it("hides another workspace's members behind the guard's 404", async () => {
    expect((await members(outsider)).statusCode).toBe(404);
  });
});
