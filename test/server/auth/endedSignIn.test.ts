// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(120_000);

import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { databaseFingerprint } from '../helpers/databaseFingerprint';
import { Paths } from '../../../src/contract/routes';

// One authentication path (docs/security.md, "A stolen sign-in"): after "sign out everywhere
// else", the other sign-in's access token — still unexpired and correctly signed — is refused on
// EVERY authenticated route, including the ones named in the issue (deployment configs, deploy,
// revoke-others) and any route added later, and it changes nothing.
describe(`an ended sign-in acts nowhere (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stolenToken: string;
  let currentToken: string;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerAccount(t.app);
    stolenToken = owner.accessToken;
    const login = await t.app.inject({
      method: 'POST',
      url: Paths.login,
      payload: { email: owner.email, password: owner.password },
    });
    currentToken = login.json().accessToken;
    const revoke = await t.app.inject({ method: 'POST', url: Paths.revokeOtherSignIns, headers: bearer(currentToken) });
    expect(revoke.json()).toEqual({ revoked: 1 });
  });
  afterAll(() => t.close());

  function concreteUrl(pattern: string): string {
    return pattern
      .split('/')
      .map((segment) => {
        if (segment === ':workspaceId') return owner.workspaceId;
        if (segment.startsWith(':')) return randomUUID();
        if (segment === '*') return 'anything';
        return segment;
      })
      .join('/');
  }

  const call = (method: string, url: string, token?: string) => {
    const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
    return t.app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(token ? bearer(token) : {}),
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      payload: hasBody ? JSON.stringify({ workspaceId: owner.workspaceId, name: 'x', url: 'http://x' }) : undefined,
    });
  };

  /** The routes that want a token: those that answer 401 to a call without one. */
  async function authenticatedRoutes(): Promise<{ method: string; url: string }[]> {
    const found: { method: string; url: string }[] = [];
    for (const route of t.app.routeList.filter((r) => r.url.startsWith('/api/'))) {
      const res = await call(route.method, concreteUrl(route.url));
      if (res.statusCode === 401) found.push(route);
    }
    return found;
  }

  it('refuses the ended sign-in on every authenticated route and changes nothing', async () => {
    const routes = await authenticatedRoutes();
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    // The routes of the report are among those walked.
    expect(urls).toEqual(
      expect.arrayContaining([
        'POST /api/v1/users/me/sign-ins/revoke-others',
        'GET /api/v1/users/me',
        'POST /api/v1/deployments/configs',
        'GET /api/v1/workspaces/:workspaceId/servers',
      ]),
    );
    expect(urls.some((u) => u.includes('deploy'))).toBe(true);
    const before = await databaseFingerprint(t.database.db);
    const failures: string[] = [];
    for (const route of routes) {
      const res = await call(route.method, concreteUrl(route.url), stolenToken);
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint(t.database.db)).toEqual(before);
  });

  it('keeps the sign-in that ended the others working', async () => {
    const me = await call('GET', '/api/v1/users/me', currentToken);
    expect(me.statusCode).toBe(200);
    const list = await call('GET', `${Paths.deploymentConfigs}?workspaceId=${owner.workspaceId}`, currentToken);
    expect(list.statusCode).not.toBe(401);
  });

  it('says why the token was refused', async () => {
    const res = await call('POST', Paths.revokeOtherSignIns, stolenToken);
    expect(res.json()).toEqual({ message: 'This sign-in has ended; sign in again', code: 'unauthorized' });
  });
});
