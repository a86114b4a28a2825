jest.setTimeout(300_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';

// Workspace settings over the real API: edit, delete, roles and leaving, with the role checks.
describe(`workspace settings (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let admin: TestAccount;
  let member: TestAccount;
  let teamId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app, { firstName: 'Olga' });
    admin = await registerAccount(t.app, { firstName: 'Adam' });
    member = await registerAccount(t.app, { firstName: 'Mia' });
    // Members are added directly: how people join (invitations) is the members module's business.
    const team = await t.database.db.query<{ id: string }>(
      `insert into workspaces (name, workspace_type, owner_id) values ('Team', 'team', $1) returning id`,
      [owner.user.id],
    );
    teamId = team[0].id;
    await t.database.db.query(
      `insert into workspace_members (workspace_id, user_id, role, created_at) values ($1, $2, 'owner', now() - interval '2 minutes'), ($1, $3, 'admin', now() - interval '1 minute'), ($1, $4, 'member', now())`,
      [teamId, owner.user.id, admin.user.id, member.user.id],
    );
  });
  afterAll(() => t.close());

  const call = (who: TestAccount, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/workspaces/${url}`,
      headers: bearer(who.accessToken),
      ...(payload ? { payload } : {}),
    });
  const roles = async () =>
    Object.fromEntries(
      ((await call(owner, 'GET', `${teamId}/members`)).json().members as { userId: string; role: string }[]).map(
        (m) => [m.userId, m.role],
      ),
    );

  it('lets owners and admins rename the workspace; a member gets 403 with a message and nothing changes', async () => {
    const byAdmin = await call(admin, 'PUT', teamId, { name: ' Platform team ', description: 'Agents in production' });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({
      name: 'Platform team',
      description: 'Agents in production',
      workspaceType: 'team',
      role: 'admin',
    });
    const byMember = await call(member, 'PUT', teamId, { name: 'Mine now' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().message).toBe('Only workspace owners and admins can change the workspace');
    expect((await call(owner, 'PUT', teamId, { name: '  ' })).statusCode).toBe(400);
    expect((await call(owner, 'PUT', teamId, { workspaceType: 'personal' })).statusCode).toBe(400);
    expect((await call(owner, 'GET', teamId)).json()).toMatchObject({ name: 'Platform team', workspaceType: 'team' });
  });

  it('keeps at least one owner: the last owner cannot be demoted, an admin cannot touch owners', async () => {
    const lastOwner = await call(owner, 'PUT', `${teamId}/members/${owner.user.id}`, { role: 'admin' });
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json().message).toBe('A workspace needs at least one owner: make someone else owner first');
    const adminPromotes = await call(admin, 'PUT', `${teamId}/members/${member.user.id}`, { role: 'owner' });
    expect(adminPromotes.statusCode).toBe(403);
    const memberTries = await call(member, 'PUT', `${teamId}/members/${member.user.id}`, { role: 'admin' });
    expect(memberTries.statusCode).toBe(403);
    expect(memberTries.json().message).toBe('Only workspace owners and admins can change roles');
    expect((await call(owner, 'PUT', `${teamId}/members/${member.user.id}`, { role: 'emperor' })).statusCode).toBe(400);
    expect(await roles()).toEqual({ [owner.user.id]: 'owner', [admin.user.id]: 'admin', [member.user.id]: 'member' });

    const promoted = await call(owner, 'PUT', `${teamId}/members/${admin.user.id}`, { role: 'owner' });
    expect(promoted.statusCode).toBe(200);
    const demoted = await call(admin, 'PUT', `${teamId}/members/${owner.user.id}`, { role: 'admin' });
    expect(demoted.statusCode).toBe(200);
    expect(await roles()).toEqual({ [owner.user.id]: 'admin', [admin.user.id]: 'owner', [member.user.id]: 'member' });
    // The plan the workspace counts against followed the owners.
    const [row] = await t.database.db.query<{ owner_id: string }>('select owner_id from workspaces where id = $1', [
      teamId,
    ]);
    expect(row.owner_id).toBe(admin.user.id);
    // Back as it was for the next tests.
    expect((await call(admin, 'PUT', `${teamId}/members/${owner.user.id}`, { role: 'owner' })).statusCode).toBe(200);
    expect((await call(owner, 'PUT', `${teamId}/members/${admin.user.id}`, { role: 'admin' })).statusCode).toBe(200);
    expect(await roles()).toEqual({ [owner.user.id]: 'owner', [admin.user.id]: 'admin', [member.user.id]: 'member' });
  });

  it('lets a member leave, and refuses the only owner and the personal workspace', async () => {
    const extra = await registerAccount(t.app);
    await t.database.db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`, [
      teamId,
      extra.user.id,
    ]);
    expect((await call(extra, 'DELETE', `${teamId}/members/me`)).statusCode).toBe(204);
    expect((await call(extra, 'GET', teamId)).statusCode).toBe(404);
    const personal = await call(owner, 'DELETE', `${owner.workspaceId}/members/me`);
    expect([403, 409]).toContain(personal.statusCode);
  });

  it('deletes only as owner, never the personal workspace, and takes servers and sessions with it', async () => {
    const byAdmin = await call(admin, 'DELETE', teamId);
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe('Only the workspace owner can delete it');
    const personal = await call(owner, 'DELETE', owner.workspaceId);
    expect(personal.statusCode).toBe(403);
    expect(personal.json().message).toBe('Your personal workspace cannot be deleted');

    await t.database.db.query(
      `insert into servers (workspace_id, name, url, proxy_key) values ($1, 'srv', 'http://127.0.0.1:9/mcp', 'k-' || gen_random_uuid())`,
      [teamId],
    );
    const res = await call(owner, 'DELETE', teamId);
    expect(res.statusCode).toBe(204);
    expect(await t.database.db.query('select 1 from servers where workspace_id = $1', [teamId])).toHaveLength(0);
    expect(await t.database.db.query('select 1 from workspace_members where workspace_id = $1', [teamId])).toHaveLength(
      0,
    );
    expect((await call(member, 'GET', teamId)).statusCode).toBe(404);
    const ownerList = await t.app.inject({
      method: 'GET',
      url: '/api/v1/workspaces',
      headers: bearer(owner.accessToken),
    });
    expect(ownerList.json().workspaces.map((w: { id: string }) => w.id)).toEqual([owner.workspaceId]);
  });
});
