// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(120_000);

import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';

// Walks EVERY registered route whose path holds :workspaceId — including routes other modules
// add later — and calls it with another user's token and the owner's workspace id. Each must
// answer 404 (the workspace does not exist for that caller) and change nothing in the database.
describe(`cross-workspace access over every workspace route (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app);
    stranger = await registerAccount(t.app);
  });
  afterAll(() => t.close());

  /** A digest of every table's content: equal digests mean nothing was written. */
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

  function concreteUrl(pattern: string, workspaceId: string): string {
    return pattern
      .split('/')
      .map((segment) => {
        if (segment === ':workspaceId') return workspaceId;
        if (segment.startsWith(':')) return randomUUID();
        if (segment === '*') return 'anything';
        return segment;
      })
      .join('/');
  }

  const workspaceRoutes = () => t.app.routeList.filter((route) => route.url.includes(':workspaceId'));

  it('finds the workspace routes to walk', () => {
    const urls = workspaceRoutes().map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(expect.arrayContaining(['GET /api/v1/workspaces/:workspaceId']));
  });

  it('answers 404 to a non-member on every workspace route and changes nothing', async () => {
    const before = await databaseFingerprint();
    const failures: string[] = [];
    for (const route of workspaceRoutes()) {
      const url = concreteUrl(route.url, owner.workspaceId);
      const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: { ...bearer(stranger.accessToken), ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        payload: hasBody ? '{}' : undefined,
      });
      if (res.statusCode !== 404 || res.json().code !== 'not_found')
        failures.push(`${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });

  it('answers 401 without a token on every workspace route (query tokens included)', async () => {
    const failures: string[] = [];
    for (const route of workspaceRoutes()) {
      const res = await t.app.inject({ method: route.method as 'GET', url: concreteUrl(route.url, owner.workspaceId) });
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('lets the owner through the same guard', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${owner.workspaceId}`,
      headers: bearer(owner.accessToken),
    });
    expect(res.statusCode).toBe(200);
  });
});
