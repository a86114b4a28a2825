jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';

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
  });
  afterAll(() => t.close());

  const members = (who: TestAccount, workspaceId = owner.workspaceId) =>
    t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}/members`, headers: bearer(who.accessToken) });
  const invite = (who: TestAccount, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${owner.workspaceId}/members`, headers: bearer(who.accessToken), payload: payload as object });
  const remove = (who: TestAccount, userId: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${owner.workspaceId}/members/${userId}`, headers: bearer(who.accessToken) });
  const notificationsOf = async (who: TestAccount) =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: bearer(who.accessToken) })).json().notifications as {
      type: string;
      message: string;
      actionUrl: string | null;
    }[];

  it('lists the owner of a fresh workspace', async () => {
    const res = await members(owner);
    expect(res.statusCode).toBe(200);
    expect(res.json().members).toEqual([expect.objectContaining({ userId: owner.user.id, role: 'owner', fullName: 'Grace Hopper' })]);
  });

  it('adds a person by email and tells them with a workspace_invite notification', async () => {
    const res = await invite(owner, { email: invitee.email.toUpperCase(), role: 'member' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ userId: invitee.user.id, role: 'member', fullName: 'Alan Turing' });

    const theirs = await notificationsOf(invitee);
    expect(theirs).toEqual([
      expect.objectContaining({
        type: 'workspace_invite',
        message: `Grace Hopper invited you to join Grace's Workspace as member`,
        actionUrl: `/workspace/${owner.workspaceId}/settings`,
      }),
    ]);
    // The new member now gets through the workspace guard.
    expect((await members(invitee)).statusCode).toBe(200);
    const workspaces = await t.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: bearer(invitee.accessToken) });
    expect(workspaces.json().workspaces.map((w: { id: string }) => w.id)).toContain(owner.workspaceId);
  });

  it('refuses a second invitation of the same person (409) and changes nothing', async () => {
    const res = await invite(owner, { email: invitee.email });
    expect(res.statusCode).toBe(409);
    expect((await notificationsOf(invitee)).filter((n) => n.type === 'workspace_invite')).toHaveLength(1);
  });

  it('lets only owners and admins manage members', async () => {
    const res = await invite(invitee, { email: outsider.email });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Only workspace owners and admins can manage members', code: 'forbidden' });
    expect((await remove(invitee, owner.user.id)).statusCode).toBe(403);
    expect((await members(owner)).json().members).toHaveLength(2);
  });

  it('answers 404 for an email with no account and 400 for a malformed one', async () => {
    expect((await invite(owner, { email: 'nobody-here@example.com' })).statusCode).toBe(404);
    const bad = await invite(owner, { email: 'not an email', role: 'owner' });
    expect(bad.statusCode).toBe(400);
    expect((await members(owner)).json().members).toHaveLength(2);
  });

  it('never removes the owner, removes a member, and 404s for a stranger', async () => {
    expect((await remove(owner, owner.user.id)).statusCode).toBe(409);
    expect((await remove(owner, outsider.user.id)).statusCode).toBe(404);
    expect((await remove(owner, invitee.user.id)).statusCode).toBe(204);
    expect((await members(invitee)).statusCode).toBe(404);
  });

  it("hides another workspace's members behind the guard's 404", async () => {
    expect((await members(outsider)).statusCode).toBe(404);
  });
});
