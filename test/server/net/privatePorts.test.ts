jest.setTimeout(120_000);

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { parsePrivateUpstreamAllowList } from '../../../src/server/net/privateNetworkPolicy';
import { ConfigError, loadConfig } from '../../../src/server/config';

// Issue 31 item 3, last part: "every port of an operator-allowed private host" was reachable in
// exposed mode — the allowance can now name one port (`host:port`) — and the deployments' bridge
// ports are never a destination a user gives (a server, a webhook, an exporter), in either mode.
async function listener(): Promise<{ server: http.Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(403, { 'content-type': 'text/plain' }).end('INTERNAL-SECRET');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

describe(`private ports and the bridge (${engineName})`, () => {
  let allowed: Awaited<ReturnType<typeof listener>>;
  let other: Awaited<ReturnType<typeof listener>>;
  let bridge: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    [allowed, other, bridge] = await Promise.all([listener(), listener(), listener()]);
  });
  afterAll(async () => {
    for (const l of [allowed, other, bridge]) await new Promise((resolve) => l.server.close(resolve));
  });

  const registerServer = (t: TestApp, who: TestAccount, url: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${who.workspaceId}/servers`,
      headers: bearer(who.accessToken),
      payload: { url, name: 'target' },
    });

  it('reads host:port entries and refuses bad ones', () => {
    const list = parsePrivateUpstreamAllowList('10.0.0.5:8080, [fd00::1]:9000, mcp.internal:7000, 192.168.1.0/24');
    expect([...list.endpoints].sort()).toEqual(['10.0.0.5:8080', 'fd00::1:9000', 'mcp.internal:7000']);
    expect(() => loadConfig({ TOOLSCOPE_PRIVATE_UPSTREAMS: '10.0.0.5:99999' })).toThrow(ConfigError);
  });

  describe('exposed (HOST=0.0.0.0) with one private port allowed', () => {
    let t: TestApp;
    let owner: TestAccount;
    beforeAll(async () => {
      const config = loadConfig({ HOST: '0.0.0.0', TOOLSCOPE_PRIVATE_UPSTREAMS: `127.0.0.1:${allowed.port}` });
      t = await buildTestApp({
        host: '0.0.0.0',
        allowPrivateUpstreams: config.allowPrivateUpstreams,
        privateUpstreamAllowList: config.privateUpstreamAllowList,
      });
      owner = await registerAccount(t.app);
    });
    afterAll(() => t.close());

    it('allows the named port of the host and no other port of it, at save and at send', async () => {
      expect((await registerServer(t, owner, `http://127.0.0.1:${allowed.port}/mcp`)).statusCode).toBe(201);
      const refused = await registerServer(t, owner, `http://127.0.0.1:${other.port}/mcp`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/^url: Private and loopback addresses are not allowed/);
      // At send, on the connected socket: the allowed port answers, another port of the host is cut.
      expect((await t.app.outbound.request(`http://127.0.0.1:${allowed.port}/x`)).statusCode).toBe(403);
      await expect(t.app.outbound.request(`http://localhost:${other.port}/x`)).rejects.toThrow(
        /Private and loopback addresses are not allowed/,
      );
      expect(other.hits).toEqual([]);
    });
  });

  describe.each([
    ['loopback (private upstreams allowed)', {}],
    ['exposed', { host: '0.0.0.0', allowPrivateUpstreams: false }],
  ])('the bridge port, %s', (_mode, overrides) => {
    let t: TestApp;
    let owner: TestAccount;
    beforeAll(async () => {
      t = await buildTestApp(overrides);
      // What the deployments plugin does when its bridge listens (deploymentManager.ts).
      t.app.outbound.allowInternalEndpoint('127.0.0.1', bridge.port);
      owner = await registerAccount(t.app);
    });
    afterAll(() => t.close());

    it('is never a destination a user gives, in any spelling, while Toolscope itself still reaches it', async () => {
      bridge.hits.length = 0;
      for (const url of [
        `http://127.0.0.1:${bridge.port}/deployments/x/mcp`,
        `http://localhost:${bridge.port}/deployments/x/mcp`,
        `http://127.1.2.3:${bridge.port}/mcp`,
      ]) {
        const res = await registerServer(t, owner, url);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe("url: Toolscope's deployment bridge is not allowed as a destination");
      }
      const webhook = await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${owner.workspaceId}/integrations`,
        headers: bearer(owner.accessToken),
        payload: {
          kind: 'webhook',
          name: 'w',
          config: { url: `http://127.0.0.1:${bridge.port}/hook` },
          rules: { types: ['tool_server_status'], minSeverity: 'error' },
        },
      });
      expect(webhook.statusCode).toBe(400);
      expect(webhook.body).toContain("Toolscope's deployment bridge is not allowed as a destination");
      expect(bridge.hits).toEqual([]);
      expect((await t.app.outbound.request(`http://127.0.0.1:${bridge.port}/deployments/x/mcp`)).statusCode).toBe(403);
    });
  });
});
