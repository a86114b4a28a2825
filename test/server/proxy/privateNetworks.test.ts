import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../../../src/server/app';
import { generateSecret, loadConfig } from '../../../src/server/config';
import { openTestDatabase, engineName, type TestDatabase } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(300_000);

const INTERNAL_SECRET = 'internal-service-secret-51c0';

// Issue 16 item 3: with private upstreams always allowed, any user got a full-read relay into the
// host's loopback and LAN, Toolscope's own API included. Now: a loopback-only Toolscope may reach
// private upstreams (its users are on this machine anyway); one listening on other interfaces
// refuses them unless the operator names them; its own address is refused always; and what an
// upstream answers goes back only if it is MCP.
describe(`private networks through the proxy (${engineName})`, () => {
  let database: TestDatabase;
  let internal: http.Server;
  let internalUrl: string;
  let mcp: SdkUpstream;
  const apps: App[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    // A service on the host's loopback that is not MCP: it answers anything with its secret.
    internal = http.createServer((req, res) => {
      req.resume();
      const json = req.url?.includes('json');
      res
        .writeHead(200, { 'content-type': json ? 'application/json' : 'text/html' })
        .end(json ? JSON.stringify({ secret: INTERNAL_SECRET }) : `<html>${INTERNAL_SECRET}</html>`);
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
    mcp = await startStreamableUpstream({ json: true, stateful: false });
  });
  afterAll(async () => {
    for (const app of apps) {
      app.server.closeAllConnections();
      await app.close();
    }
    internal.closeAllConnections();
    await new Promise((resolve) => internal.close(resolve));
    await mcp.close();
    await database.drop();
  });

  /** An instance configured as `env` says (HOST decides the policy); it listens on loopback for the test. */
  async function instance(env: Record<string, string>): Promise<{ app: App; base: string; account: TestAccount }> {
    const config = loadConfig(env, {
      secret: generateSecret(),
      clientDir: undefined,
      journalDir: undefined,
      healthIntervalMs: 3_600_000,
      authRateLimitPerMinute: 10_000,
    });
    const app = await buildApp({ config, db: database.db });
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    return { app, base, account: await registerAccount(app) };
  }
  const register = (app: App, account: TestAccount, url: string) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${account.workspaceId}/servers`,
      headers: bearer(account.accessToken),
      payload: { url, name: 'target' },
    });
  const proxyPath = (proxyUrl: string) => new URL(proxyUrl).pathname;

  it('defaults to listening on loopback only', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({}).allowPrivateUpstreams).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0' }).allowPrivateUpstreams).toBe(false);
  });

  describe('a loopback-only instance', () => {
    let app: App;
    let base: string;
    let account: TestAccount;
    beforeAll(async () => ({ app, base, account } = await instance({ HOST: '127.0.0.1' })));

    it('reaches a local MCP server', async () => {
      const res = await register(app, account, mcp.url);
      expect(res.statusCode).toBe(201);
      const answer = await fetch(`${base}${proxyPath(res.json().proxyUrl)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect((await answer.json()).result.tools.length).toBeGreaterThan(0);
    });

    it.each(['POST', 'GET', 'DELETE'])(
      'never relays a non-MCP local service’s answer to %s: the agent gets a JSON-RPC error',
      async (method) => {
        for (const path of ['/page', '/api/json']) {
          const res = await register(app, account, `${internalUrl}${path}`);
          expect(res.statusCode).toBe(201);
          const answer = await fetch(`${base}${proxyPath(res.json().proxyUrl)}`, {
            method,
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) : undefined,
          });
          const text = await answer.text();
          expect(text).not.toContain(INTERNAL_SECRET);
          const body = JSON.parse(text);
          if (method === 'POST')
            expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32018, data: { reason: 'notMcp' } } });
          else expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32018 } });
        }
      },
    );

    it('refuses its own listening address, whatever it is called', async () => {
      const port = new URL(base).port;
      for (const url of [
        `${base}/api/health`,
        `http://localhost:${port}/api/health`,
        `http://0.0.0.0:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
      ]) {
        const res = await register(app, account, url);
        expect({ url, status: res.statusCode, message: res.json().message }).toEqual({
          url,
          status: 400,
          message: "url: Toolscope's own address is not allowed as an upstream",
        });
      }
    });
  });

  describe('an instance listening on all interfaces', () => {
    let app: App;
    let account: TestAccount;
    beforeAll(async () => ({ app, account } = await instance({ HOST: '0.0.0.0' })));

    it('refuses loopback and private upstreams, and records the refusal in the audit log', async () => {
      for (const url of [
        mcp.url,
        `${internalUrl}/page`,
        'http://10.0.0.5/mcp',
        'http://192.168.1.20:3000/mcp',
        'http://[::1]:8080/mcp',
      ]) {
        const res = await register(app, account, url);
        expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
        expect(res.json().message).toMatch(/^url: Private and loopback addresses are not allowed/);
      }
      const audit = await app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${account.workspaceId}/audit`,
        headers: bearer(account.accessToken),
      });
      const refused = (audit.json().events as { action: string; target: string }[]).filter(
        (e) => e.action === 'upstream.refused_private',
      );
      expect(refused.length).toBe(5);
      expect(refused.map((e) => e.target)).toContain('10.0.0.5');
    });
  });

  describe('an instance on all interfaces whose operator names private ranges and hosts', () => {
    let app: App;
    let account: TestAccount;
    beforeAll(
      async () =>
        ({ app, account } = await instance({
          HOST: '0.0.0.0',
          TOOLSCOPE_PRIVATE_UPSTREAMS: '127.0.0.0/8, mcp.lan.example',
        })),
    );

    it('allows what is named and refuses the rest', async () => {
      expect((await register(app, account, mcp.url)).statusCode).toBe(201);
      expect((await register(app, account, 'http://10.0.0.5/mcp')).statusCode).toBe(400);
    });

    it('refuses a malformed operator setting at start', () => {
      expect(() => loadConfig({ TOOLSCOPE_PRIVATE_UPSTREAMS: '10.0.0.0/99' })).toThrow(/TOOLSCOPE_PRIVATE_UPSTREAMS/);
    });
  });
});
