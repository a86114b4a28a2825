import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import type { ServerDto } from '../../../src/contract/servers';
import type { LiveMessage } from '../../../src/contract/live';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

jest.setTimeout(60_000);

describe(`servers API (${engineName})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  let upstream: SdkUpstream;
  const path = (ws: string, rest = '') => `/api/v1/workspaces/${ws}/servers${rest}`;

  beforeAll(async () => {
    t = await buildTestApp({ healthIntervalMs: 3_600_000 });
    owner = await registerAccount(t.app);
    stranger = await registerAccount(t.app);
    upstream = await startStreamableUpstream({ json: true, stateful: false });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  async function register(payload: Record<string, unknown>, account = owner, query = '') {
    return t.app.inject({
      method: 'POST',
      url: path(account.workspaceId) + query,
      headers: bearer(account.accessToken),
      payload,
    });
  }

  it('registers a server with an unguessable proxy URL and announces it', async () => {
    const live: LiveMessage[] = [];
    const unsubscribe = t.app.bus.subscribe(owner.workspaceId, (m) => void live.push(m));
    const res = await register({ url: upstream.url, name: 'Fixture', description: 'tools' });
    unsubscribe();
    expect(res.statusCode).toBe(201);
    const dto = res.json<ServerDto>();
    expect(dto).toMatchObject({
      name: 'Fixture',
      url: upstream.url,
      description: 'tools',
      workspaceId: owner.workspaceId,
      status: 'offline',
      lastHealthStatus: null,
      lastChecked: null,
      transport: 'streamable-http',
      hasCredentials: false,
      timeoutMs: null,
    });
    // 24 random bytes in base64url: 192 bits.
    expect(dto.proxyUrl).toMatch(/^http:\/\/localhost:80\/mcp\/[A-Za-z0-9_-]{32}$/);
    expect(live).toContainEqual(
      expect.objectContaining({ type: 'server_updated', data: expect.objectContaining({ id: dto.id }) }),
    );

    const listed = await t.app.inject({
      method: 'GET',
      url: path(owner.workspaceId),
      headers: bearer(owner.accessToken),
    });
    expect(listed.json<ServerDto[]>().map((s) => s.id)).toContain(dto.id);
  });

  it('uses TOOLSCOPE_PUBLIC_URL for the proxy URL when set', async () => {
    const other = await buildTestApp(
      { publicUrl: 'https://toolscope.example.com', secret: t.config.secret, healthIntervalMs: 3_600_000 },
      t.database,
    );
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: path(owner.workspaceId),
        headers: bearer(owner.accessToken),
        payload: { url: upstream.url, name: 'P' },
      });
      expect(res.json<ServerDto>().proxyUrl).toMatch(/^https:\/\/toolscope\.example\.com\/mcp\/[A-Za-z0-9_-]{32}$/);
    } finally {
      await other.app.close();
    }
  });

  it('accepts ?workspace_id= only when it names the same workspace', async () => {
    expect(
      (await register({ url: upstream.url, name: 'Q' }, owner, `?workspace_id=${owner.workspaceId}`)).statusCode,
    ).toBe(201);
    const res = await register({ url: upstream.url, name: 'Q' }, owner, `?workspace_id=${stranger.workspaceId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'bad_request',
      fields: { workspace_id: 'Must match the workspace in the path' },
    });
  });

  it.each([
    ['a non-http URL', { url: 'ftp://example.com/mcp', name: 'x' }, /url/],
    [
      'a cloud metadata URL',
      { url: 'http://169.254.169.254/latest', name: 'x' },
      /url: Link-local and cloud metadata addresses are not allowed/,
    ],
    [
      'an encoded metadata URL',
      { url: 'http://0xa9fea9fe/', name: 'x' },
      /url: Link-local and cloud metadata addresses are not allowed/,
    ],
    ['no name', { url: 'http://127.0.0.1:9/mcp', name: '' }, /name/],
    [
      'a header the proxy owns',
      { url: 'http://127.0.0.1:9/', name: 'x', headers: { 'Mcp-Session-Id': 'x' } },
      /headers/,
    ],
  ])('refuses %s with 400 and stores nothing', async (_what, payload, message) => {
    const before = await t.database.db.query<{ n: number }>('select count(*)::int as n from servers');
    const res = await register(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await t.database.db.query('select count(*)::int as n from servers')).toEqual(before);
  });

  it('keeps upstream credentials encrypted and write-only', async () => {
    const res = await register({
      url: upstream.url,
      name: 'Secret',
      headers: { Authorization: 'Bearer very-secret-token' },
    });
    const dto = res.json<ServerDto>();
    expect(dto.hasCredentials).toBe(true);
    expect(res.body).not.toContain('very-secret-token');
    const got = await t.app.inject({
      method: 'GET',
      url: path(owner.workspaceId, `/${dto.id}`),
      headers: bearer(owner.accessToken),
    });
    expect(got.body).not.toContain('very-secret-token');
    const [row] = await t.database.db.query<{ credentials_enc: string }>(
      'select credentials_enc from servers where id = $1',
      [dto.id],
    );
    expect(row.credentials_enc).toMatch(/^v1\./);
    expect(row.credentials_enc).not.toContain('very-secret');

    // Omitting headers keeps them; {} removes them.
    const renamed = await t.app.inject({
      method: 'PUT',
      url: path(owner.workspaceId, `/${dto.id}`),
      headers: bearer(owner.accessToken),
      payload: { name: 'Renamed' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', hasCredentials: true, url: upstream.url });
    const cleared = await t.app.inject({
      method: 'PUT',
      url: path(owner.workspaceId, `/${dto.id}`),
      headers: bearer(owner.accessToken),
      payload: { headers: {} },
    });
    expect(cleared.json()).toMatchObject({ hasCredentials: false });
  });

  it('updates, then deletes a server, after which its proxy URL is gone', async () => {
    const dto = (await register({ url: upstream.url, name: 'Doomed' })).json<ServerDto>();
    const key = new URL(dto.proxyUrl).pathname;
    const ping = () =>
      t.app.inject({
        method: 'POST',
        url: key,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
    expect((await ping()).statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'PUT',
      url: path(owner.workspaceId, `/${dto.id}`),
      headers: bearer(owner.accessToken),
      payload: { url: 'http://[fe80::1]/' },
    });
    expect(bad.statusCode).toBe(400);
    const del = await t.app.inject({
      method: 'DELETE',
      url: path(owner.workspaceId, `/${dto.id}`),
      headers: bearer(owner.accessToken),
    });
    expect(del.statusCode).toBe(204);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: path(owner.workspaceId, `/${dto.id}`),
          headers: bearer(owner.accessToken),
        })
      ).statusCode,
    ).toBe(404);
    expect((await ping()).statusCode).toBe(404);
  });

  it('checks health on demand: online for a live upstream, offline for a dead one', async () => {
    const live = (await register({ url: upstream.url, name: 'Live' })).json<ServerDto>();
    const ok = await t.app.inject({
      method: 'POST',
      url: path(owner.workspaceId, `/${live.id}/health`),
      headers: bearer(owner.accessToken),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      healthy: true,
      server: { id: live.id, status: 'online', lastHealthStatus: true, lastChecked: expect.any(String) },
    });

    const gone = http.createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', () => r()));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    const dead = (await register({ url: `http://127.0.0.1:${port}/mcp`, name: 'Dead' })).json<ServerDto>();
    const down = await t.app.inject({
      method: 'POST',
      url: path(owner.workspaceId, `/${dead.id}/health`),
      headers: bearer(owner.accessToken),
    });
    expect(down.json()).toMatchObject({ healthy: false, server: { status: 'offline', lastHealthStatus: false } });
  });

  it("gives 404 for another workspace's servers on every route, and changes nothing", async () => {
    const dto = (await register({ url: upstream.url, name: 'Mine' })).json<ServerDto>();
    // Registration discovers and checks the server in the background: let that finish first, so
    // what changes after it can only come from the stranger's attempts.
    await t.app.schemaDiscovery.idle();
    const ownerView = () =>
      t.app.inject({ method: 'GET', url: path(owner.workspaceId, `/${dto.id}`), headers: bearer(owner.accessToken) });
    const before = (await ownerView()).json<ServerDto>();
    const asStranger = bearer(stranger.accessToken);
    const attempts = [
      { method: 'GET' as const, url: path(owner.workspaceId) },
      { method: 'POST' as const, url: path(owner.workspaceId), payload: { url: upstream.url, name: 'x' } },
      { method: 'GET' as const, url: path(owner.workspaceId, `/${dto.id}`) },
      { method: 'PUT' as const, url: path(owner.workspaceId, `/${dto.id}`), payload: { name: 'hijacked' } },
      { method: 'DELETE' as const, url: path(owner.workspaceId, `/${dto.id}`) },
      { method: 'POST' as const, url: path(owner.workspaceId, `/${dto.id}/health`) },
      // Their own workspace in the path, someone else's server id.
      { method: 'GET' as const, url: path(stranger.workspaceId, `/${dto.id}`) },
      { method: 'PUT' as const, url: path(stranger.workspaceId, `/${dto.id}`), payload: { name: 'hijacked' } },
      { method: 'DELETE' as const, url: path(stranger.workspaceId, `/${dto.id}`) },
      { method: 'POST' as const, url: path(stranger.workspaceId, `/${dto.id}/health`) },
    ];
    for (const attempt of attempts) {
      const res = await t.app.inject({ ...attempt, headers: asStranger });
      expect([attempt.method, attempt.url, res.statusCode]).toEqual([attempt.method, attempt.url, 404]);
    }
    const after = (await ownerView()).json<ServerDto>();
    expect(after).toEqual(before);
    expect(after.name).toBe('Mine');
  });
});
