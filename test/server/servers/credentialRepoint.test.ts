import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { addToWorkspace } from '../helpers/workspaceMembers';
import { engineName } from '../helpers/testDatabase';
import type { ServerDto } from '../../../src/contract/servers';

jest.setTimeout(300_000);

const SECRET = 'Bearer stored-upstream-secret-7f3a';

// Issue 16 item 1: a member repointed a server holding an Authorization header to their own
// listener and received the secret. Now only owners and admins change a server, and a new URL
// drops the stored credentials unless the same request sets them again.
describe(`repointing a server never carries its stored credentials along (${engineName})`, () => {
  let t: ProxyTestApp;
  let member: TestAccount;
  let admin: TestAccount;
  let trap: http.Server;
  let trapUrl: string;
  const seenByTrap: (string | undefined)[] = [];
  let server: ServerDto;
  let proxyUrl: URL;

  beforeAll(async () => {
    t = await startProxyApp();
    member = await registerAccount(t.app);
    admin = await registerAccount(t.app);
    await addToWorkspace(t.app, t.account.workspaceId, member, 'member');
    await addToWorkspace(t.app, t.account.workspaceId, admin, 'admin');
    // The attacker's listener: records the Authorization of every request it gets, and answers
    // as a small MCP server would (so health checks and discovery finish instead of timing out).
    trap = http.createServer((req, res) => {
      seenByTrap.push(req.headers.authorization);
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const request = (() => {
          try {
            return JSON.parse(body) as { id?: unknown; method?: string };
          } catch {
            return {};
          }
        })();
        if (request.id === undefined) return res.writeHead(202).end();
        const result =
          request.method === 'initialize'
            ? {
                protocolVersion: '2025-06-18',
                capabilities: { tools: {} },
                serverInfo: { name: 'trap', version: '1.0.0' },
              }
            : request.method === 'tools/list'
              ? { tools: [] }
              : {};
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result }));
      });
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/mcp`;
    ({ server, proxyUrl } = await t.register('http://127.0.0.1:9/mcp', { headers: { Authorization: SECRET } }));
    expect(server.hasCredentials).toBe(true);
  });
  afterAll(async () => {
    await t.close();
    trap.closeAllConnections();
    await new Promise((resolve) => trap.close(resolve));
  });

  const put = (who: TestAccount, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${t.account.workspaceId}/servers/${server.id}`,
      headers: bearer(who.accessToken),
      payload,
    });
  const get = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${t.account.workspaceId}/servers/${server.id}`,
        headers: bearer(t.account.accessToken),
      })
    ).json<ServerDto>();

  /** Everything that makes Toolscope call a server's URL: check now, discovery, an agent's call. */
  async function driveTraffic(): Promise<void> {
    const ws = t.account.workspaceId;
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ws}/servers/${server.id}/health`,
      headers: bearer(admin.accessToken),
      payload: {},
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ws}/servers/${server.id}/schemas/discover`,
      headers: bearer(admin.accessToken),
      payload: {},
    });
    await fetch(proxyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }).then((r) => r.text());
  }

  it('refuses a plain member who tries to repoint the server, and keeps it as it was', async () => {
    const res = await put(member, { url: trapUrl });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Only workspace owners and admins can do this', code: 'forbidden' });
    expect(await get()).toMatchObject({ url: 'http://127.0.0.1:9/mcp', hasCredentials: true });
  });

  it('keeps the credentials when only the name changes', async () => {
    const res = await put(admin, { name: 'renamed' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'renamed', hasCredentials: true });
  });

  it('drops the stored credentials when an admin changes the URL without sending new ones: the new host never sees the secret', async () => {
    const res = await put(admin, { url: trapUrl });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ url: trapUrl, hasCredentials: false });
    await driveTraffic();
    expect(seenByTrap.length).toBeGreaterThan(0);
    expect(seenByTrap.filter((value) => value === SECRET)).toEqual([]);
  });

  it('drops them for a change of path on the same host too', async () => {
    expect(
      (await put(admin, { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: SECRET } })).json(),
    ).toMatchObject({ hasCredentials: true });
    expect((await put(admin, { url: 'http://127.0.0.1:9/other' })).json()).toMatchObject({ hasCredentials: false });
  });

  it('sends the credentials set in the same request that changes the URL', async () => {
    seenByTrap.length = 0;
    const res = await put(admin, { url: trapUrl, headers: { Authorization: 'Bearer meant-for-the-trap' } });
    expect(res.json()).toMatchObject({ url: trapUrl, hasCredentials: true });
    await driveTraffic();
    expect(seenByTrap).toContain('Bearer meant-for-the-trap');
    expect(seenByTrap).not.toContain(SECRET);
  });
});
