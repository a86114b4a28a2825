// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { workspaceLimitText } from '../../../src/contract/billing';

describe(`workspaces (${engineName})`, () => {
  let t: TestApp;
  let starter: TestAccount;
  let pro: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp();
    starter = await registerAccount(t.app);
    pro = await registerAccount(t.app, { firstName: 'Margaret', lastName: 'Hamilton' });
    // No payment provider here: put the account on Pro as a paid checkout would.
    await t.database.db.query(`update subscriptions set plan = 'pro' where user_id = $1`, [pro.user.id]);
  });
  afterAll(() => t.close());

  const create = (account: TestAccount, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: bearer(account.accessToken),
      payload: payload as object,
    });
  const list = async (account: TestAccount) =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: bearer(account.accessToken) })).json()
      .workspaces as { id: string; name: string }[];

  it('lists the personal workspace made at sign-up', async () => {
    const workspaces = await list(pro);
    expect(workspaces).toEqual([
      {
        id: pro.workspaceId,
        name: "Margaret's Workspace",
        description: '',
        workspaceType: 'personal',
        role: 'owner',
        requirePlatformKey: false,
        createdAt: expect.any(String),
      },
    ]);
  });

  it('refuses a second workspace on Starter with 403 plan_limit and the text can-create-workspace gives', async () => {
    const check = await t.app.inject({
      method: 'GET',
      url: '/api/v1/billing/can-create-workspace?type=personal',
      headers: bearer(starter.accessToken),
    });
    expect(check.json()).toEqual({ canCreate: false, error: workspaceLimitText('Starter', 1) });
    const res = await create(starter, { name: 'Second' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: check.json().error, code: 'plan_limit' });
    expect(await list(starter)).toHaveLength(1);
  });

  it('creates a workspace within the plan: name trimmed, description defaulted, caller is owner', async () => {
    const res = await create(pro, { name: '  Agents in prod  ', workspaceType: 'team' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Agents in prod',
      description: '',
      workspaceType: 'team',
      role: 'owner',
      requirePlatformKey: false,
      createdAt: expect.any(String),
    });
    expect((await list(pro)).map((w) => w.id)).toEqual([pro.workspaceId, body.id]);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(pro.accessToken) });
    expect(me.json().workspaceCount).toBe(2);
  });

  it('stops at the Pro limit of 5 owned workspaces', async () => {
    const owned = (await list(pro)).length;
    for (let i = owned; i < 5; i += 1)
      expect((await create(pro, { name: `Workspace ${i}`, description: 'd' })).statusCode).toBe(201);
    const refused = await create(pro, { name: 'Sixth' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: workspaceLimitText('Pro', 5), code: 'plan_limit' });
  });

  it('lets only one of several simultaneous creations take the last free slot', async () => {
    const racer = await registerAccount(t.app);
    await t.database.db.query(`update subscriptions set plan = 'pro' where user_id = $1`, [racer.user.id]);
    for (let i = 1; i < 4; i += 1) await create(racer, { name: `Existing ${i}` });
    const answers = await Promise.all([1, 2, 3].map((i) => create(racer, { name: `Racer ${i}` })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 403, 403]);
    expect(await list(racer)).toHaveLength(5);
  });

  it.each([
    ['a blank name', { name: '   ' }, 'name'],
    ['no name', { description: 'x' }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
    ['an unknown workspace type', { name: 'X', workspaceType: 'galaxy' }, 'workspaceType'],
    ['a description over 500 characters', { name: 'X', description: 'x'.repeat(501) }, 'description'],
  ])('answers 400 for %s and creates nothing', async (_label, payload, field) => {
    const enterprise = await registerAccount(t.app);
    await t.database.db.query(`update subscriptions set plan = 'enterprise' where user_id = $1`, [enterprise.user.id]);
    const res = await create(enterprise, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { [field]: expect.any(String) } });
    if (field === 'name' && (payload as { name?: string }).name === '   ')
      expect(res.json().fields.name).toBe('Workspace name is required');
    expect(await list(enterprise)).toHaveLength(1);
  });

  it('GET /workspaces/:id returns a workspace the caller belongs to', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${starter.workspaceId}`,
      headers: bearer(starter.accessToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: starter.workspaceId, workspaceType: 'personal', role: 'owner' });
  });

  it.each([
    ['another user’s workspace', () => starter.workspaceId],
    ['an unknown id', () => '3f1b1c9e-5a4d-4f7e-9a55-2b8f0d0e6c11'],
    ['a malformed id', () => 'not-a-uuid'],
  ])('GET /workspaces/:id answers 404 for %s, leaking nothing', async (_label, id) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${id()}`,
      headers: bearer(pro.accessToken),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Workspace not found', code: 'not_found' });
  });

  it('requires sign-in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/workspaces' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/workspaces', payload: { name: 'x' } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${starter.workspaceId}` })).statusCode).toBe(
      401,
    );
  });
});
