// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(120_000);

import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { addToWorkspace } from '../helpers/workspaceMembers';

// The deployment routes name their workspace through a stored row or a body/query field, not the
// path, so the workspace guard does not cover them: this walker does, over EVERY route under
// /api/v1/deployments and /api/v1/deployment-configs (a route added later is walked too). A
// stranger gets 404 everywhere and changes nothing; a plain member reads but every mutating route
// answers 403 and changes nothing; no token → 401.
describe(`deployment routes: membership and roles (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  let member: TestAccount;
  let configId: string;
  let deploymentId: string;

  beforeAll(async () => {
    t = await buildTestApp({ deploymentsEnabled: true });
    owner = await registerAccount(t.app);
    stranger = await registerAccount(t.app);
    member = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, member, 'member');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/deployments/configs',
      headers: bearer(owner.accessToken),
      payload: {
        workspace_id: owner.workspaceId,
        name: 'owned',
        command: 'node',
        args: ['--version'],
        restartPolicy: 'never',
      },
    });
    expect(created.statusCode).toBe(201);
    configId = created.json().id;
    // A finished deployment row to aim at (nothing runs: the walk must not start programs).
    const [row] = await t.database.db.query<{ id: string }>(
      `insert into deployments (workspace_id, config_id, status, desired_state) values ($1, $2, 'stopped', 'stopped') returning id`,
      [owner.workspaceId, configId],
    );
    deploymentId = row.id;
  });
  afterAll(() => t.close());

  async function databaseFingerprint(): Promise<Record<string, string>> {
    const tables = await t.database.db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    const out: Record<string, string> = {};
    for (const { table_name } of tables) {
      const rows = await t.database.db.query<{ digest: string | null }>(
        `select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as digest from "${table_name}" r`,
      );
      out[table_name] = rows[0].digest ?? '';
    }
    return out;
  }

  const deploymentRoutes = () =>
    t.app.routeList.filter(
      (r) => r.url.startsWith('/api/v1/deployments') || r.url.startsWith('/api/v1/deployment-configs'),
    );

  /** The route with the owner's ids, and a body that would be valid for it. */
  function request(route: { method: string; url: string }): { url: string; payload?: Record<string, unknown> } {
    const isConfigRoute =
      route.url.startsWith('/api/v1/deployment-configs') || route.url.startsWith('/api/v1/deployments/configs');
    const url = route.url.replace(':id', isConfigRoute ? configId : deploymentId);
    if (route.method === 'GET' && route.url === '/api/v1/deployment-configs')
      return { url: `${url}?workspace_id=${owner.workspaceId}` };
    if (route.method === 'POST' && route.url === '/api/v1/deployments/configs')
      return { url, payload: { workspace_id: owner.workspaceId, name: 'intruder', command: 'node' } };
    if (route.method === 'PUT') return { url, payload: { name: 'renamed by an intruder' } };
    return { url };
  }

  it('walks the routes SPEC §7 names', () => {
    const names = deploymentRoutes().map((r) => `${r.method} ${r.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/v1/deployments/configs',
        'GET /api/v1/deployment-configs',
        'GET /api/v1/deployment-configs/:id',
        'PUT /api/v1/deployment-configs/:id',
        'DELETE /api/v1/deployment-configs/:id',
        'POST /api/v1/deployments/configs/:id/deploy',
        'GET /api/v1/deployments/configs/:id/deployments',
        'GET /api/v1/deployments/:id',
        'GET /api/v1/deployments/:id/status',
        'GET /api/v1/deployments/:id/logs',
        'DELETE /api/v1/deployments/:id',
      ]),
    );
  });

  it("answers 404 to a stranger on every deployment route with the owner's ids, and changes nothing", async () => {
    const before = await databaseFingerprint();
    const failures: string[] = [];
    for (const route of deploymentRoutes()) {
      const { url, payload } = request(route);
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: bearer(stranger.accessToken),
        payload,
      });
      if (res.statusCode !== 404 || res.json().code !== 'not_found')
        failures.push(`${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });

  it('lets a member read but answers 403 on every mutating route, changing nothing', async () => {
    const before = await databaseFingerprint();
    const failures: string[] = [];
    for (const route of deploymentRoutes()) {
      const { url, payload } = request(route);
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: bearer(member.accessToken),
        payload,
      });
      const expected = route.method === 'GET' ? 200 : 403;
      if (res.statusCode !== expected)
        failures.push(`${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });

  it('answers 401 without a token', async () => {
    const failures: string[] = [];
    for (const route of deploymentRoutes()) {
      const res = await t.app.inject({ method: route.method as 'GET', url: request(route).url });
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 404 for unknown and malformed ids and 400 for bad bodies', async () => {
    const auth = bearer(owner.accessToken);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/deployment-configs/${randomUUID()}`, headers: auth }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/deployments/not-a-uuid', headers: auth })).statusCode,
    ).toBe(404);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/deployments/configs',
      headers: auth,
      payload: { workspace_id: owner.workspaceId, name: 'x', command: 'node', args: 'not an array' },
    });
    expect(bad.statusCode).toBe(400);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/deployments/configs',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"workspace_id":',
    });
    expect(malformed.statusCode).toBe(400);
    const escape = await t.app.inject({
      method: 'POST',
      url: '/api/v1/deployments/configs',
      headers: auth,
      payload: { workspace_id: owner.workspaceId, name: 'x', command: 'node', cwd: '../../etc' },
    });
    expect(escape.statusCode).toBe(400);
    expect(escape.json().message).toContain("inside the deployment's working folder");
    const reserved = await t.app.inject({
      method: 'POST',
      url: '/api/v1/deployments/configs',
      headers: auth,
      payload: { workspace_id: owner.workspaceId, name: 'x', command: 'node', env: { PATH: '/tmp' } },
    });
    expect(reserved.statusCode).toBe(400);
    const count = await t.database.db.query<{ n: number }>('select count(*)::int as n from deployment_configs');
    expect(count[0].n).toBe(1);
  });

  it('refuses to deploy where the operator has not turned deployments on', async () => {
    const off = await buildTestApp({ deploymentsEnabled: false });
    try {
      const account = await registerAccount(off.app);
      const created = await off.app.inject({
        method: 'POST',
        url: '/api/v1/deployments/configs',
        headers: bearer(account.accessToken),
        payload: { workspace_id: account.workspaceId, name: 'x', command: 'node' },
      });
      const res = await off.app.inject({
        method: 'POST',
        url: `/api/v1/deployments/configs/${created.json().id}/deploy`,
        headers: bearer(account.accessToken),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toContain('TOOLSCOPE_DEPLOYMENTS=on');
      const rows = await off.database.db.query<{ n: number }>('select count(*)::int as n from deployments');
      expect(rows[0].n).toBe(0);
    } finally {
      await off.close();
    }
  });
});
