// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(300_000);

import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { addToWorkspace } from '../helpers/workspaceMembers';
import { databaseFingerprint } from '../helpers/databaseFingerprint';
import type { RegisteredRoute } from '../../../src/server/app';

// The role walker, beside the stranger walker: EVERY mutating route under
// /api/v1/workspaces/:workspaceId — including routes other modules add later — must say which
// role it needs (`config: { minRole }`). A route that plain members may call says
// `minRole: 'member'` explicitly; one that forgets fails here. Then every route that needs more than
// a member is called as a member (and owner-only ones as an admin): each must answer 403 from the
// guard, before its body is even validated, and change nothing.
describe(`roles over every mutating workspace route (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let member: TestAccount;
  let admin: TestAccount;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app);
    member = await registerAccount(t.app);
    admin = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, member, 'member');
    await addToWorkspace(t.app, owner.workspaceId, admin, 'admin');
  });
  afterAll(() => t.close());

  const MUTATING = ['POST', 'PUT', 'PATCH', 'DELETE'];
  const workspaceRoutes = () => t.app.routeList.filter((route) => route.url.includes(':workspaceId'));
  const mutatingRoutes = () => workspaceRoutes().filter((route) => MUTATING.includes(route.method));

  function concreteUrl(pattern: string, workspaceId: string): string {
    return pattern
      .split('/')
      .map((segment) =>
        segment === ':workspaceId'
          ? workspaceId
          : segment.startsWith(':')
            ? randomUUID()
            : segment === '*'
              ? 'anything'
              : segment,
      )
      .join('/');
  }

  async function callAs(who: TestAccount, route: RegisteredRoute) {
    return t.app.inject({
      method: route.method as 'POST',
      url: concreteUrl(route.url, owner.workspaceId),
      headers: { ...bearer(who.accessToken), 'content-type': 'application/json' },
      payload: '{}',
    });
  }

  it('finds the mutating workspace routes to walk', () => {
    const found = mutatingRoutes().map((r) => `${r.method} ${r.url}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'POST /api/v1/workspaces/:workspaceId/servers',
        'PUT /api/v1/workspaces/:workspaceId/servers/:serverId',
      ]),
    );
  });

  it('has every mutating workspace route declare the role it needs', () => {
    const undeclared = mutatingRoutes()
      .filter((route) => route.minRole === undefined)
      .map((route) => `${route.method} ${route.url} declares no config.minRole`);
    expect(undeclared).toEqual([]);
  });

  it('refuses a plain member on every route that needs an admin or the owner, with 403 and no change', async () => {
    const guarded = workspaceRoutes().filter((route) => route.minRole === 'admin' || route.minRole === 'owner');
    expect(guarded.length).toBeGreaterThan(5);
    const before = await databaseFingerprint(t.database.db);
    const failures: string[] = [];
    for (const route of guarded) {
      const res = await callAs(member, route);
      const expected =
        route.roleRefusal ??
        (route.minRole === 'owner'
          ? 'Only the workspace owner can do this'
          : 'Only workspace owners and admins can do this');
      if (res.statusCode !== 403 || res.json().message !== expected)
        failures.push(`${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint(t.database.db)).toEqual(before);
  });

  it('refuses an admin on owner-only routes', async () => {
    const failures: string[] = [];
    for (const route of workspaceRoutes().filter((r) => r.minRole === 'owner')) {
      const res = await callAs(admin, route);
      if (res.statusCode !== 403) failures.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('lets an admin past the guard on admin routes (the handler answers, not the guard)', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${owner.workspaceId}/notification-settings`,
      headers: bearer(admin.accessToken),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
  });
});
