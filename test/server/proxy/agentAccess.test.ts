import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import type { CreatedPlatformKeyDto, PlatformKeyDto, PlatformKeyListResult } from '../../../src/contract/keys';

// Agents authenticate at the proxy with platform keys: real SDK clients through the real proxy to
// a real SDK upstream that keeps the headers it received.
jest.setTimeout(120_000);

describe(`platform keys at the proxy (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let other: SdkUpstream;
  let proxyUrl: URL;
  let otherProxyUrl: URL;
  let serverId: string;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/workspaces/${t.account.workspaceId}${url}`,
      headers: bearer(t.account.accessToken),
      ...(payload ? { payload } : {}),
    });
  const createKey = async (body: object) => {
    const res = await api('POST', '/platform/keys', body);
    expect(res.statusCode).toBe(201);
    return res.json<CreatedPlatformKeyDto>();
  };
  const connect = async (url: URL, headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'keyed-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    return client;
  };
  const initialize = (url: URL, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
  const requireKey = async (on: boolean) =>
    expect((await api('PUT', '', { requirePlatformKey: on })).json().requirePlatformKey).toBe(on);

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    other = await startStreamableUpstream({ json: true, stateful: true });
    t = await startProxyApp();
    const registered = await t.register(upstream.url, { headers: { Authorization: 'Bearer upstream-secret' } });
    proxyUrl = registered.proxyUrl;
    serverId = registered.server.id;
    otherProxyUrl = (await t.register(other.url, { name: 'other' })).proxyUrl;
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
    await other.close();
  });
  afterEach(() => requireKey(false));

  it('keeps existing proxy URLs working while the switch is off', async () => {
    const client = await connect(proxyUrl);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'open' } })).toMatchObject({
      content: [{ text: 'echo: open' }],
    });
    await client.close();
  });

  it('refuses an agent without a key once the workspace requires one: 401, WWW-Authenticate, a JSON-RPC error the client shows', async () => {
    await requireKey(true);
    await expect(connect(proxyUrl)).rejects.toThrow(/requires a platform key/);
    const raw = await initialize(proxyUrl);
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer realm="Toolscope MCP proxy", error="invalid_request"/);
    expect(await raw.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32030, message: expect.stringMatching(/requires a platform key/) },
    });
  });

  it('lets a valid key through (Bearer or X-Toolscope-Key), attributes the session and call, and never forwards the key', async () => {
    await requireKey(true);
    const key = await createKey({ name: 'agent one' });
    upstream.requests.length = 0;
    const viaBearer = await connect(proxyUrl, { Authorization: `Bearer ${key.secret}` });
    expect(await viaBearer.callTool({ name: 'echo', arguments: { text: 'keyed' } })).toMatchObject({
      content: [{ text: 'echo: keyed' }],
    });
    await viaBearer.close();
    const viaHeader = await connect(proxyUrl, { 'X-Toolscope-Key': key.secret });
    expect(await viaHeader.callTool({ name: 'echo', arguments: { text: 'header' } })).toMatchObject({
      content: [{ text: 'echo: header' }],
    });
    await viaHeader.close();

    expect(upstream.requests.length).toBeGreaterThan(0);
    for (const headers of upstream.requests) {
      expect(JSON.stringify(headers)).not.toContain(key.secret);
      expect(headers['x-toolscope-key']).toBeUndefined();
      // The upstream gets the server's own stored credential instead.
      expect(headers.authorization).toBe('Bearer upstream-secret');
    }

    await t.app.recorder.flush();
    const sessions = await t.database.db.query<{ platform_key_id: string | null; call_count: number }>(
      'select platform_key_id, call_count from sessions where server_id = $1 and client_name = $2 order by started_at',
      [serverId, 'keyed-agent'],
    );
    const keyed = sessions.filter((s) => s.platform_key_id === key.id);
    expect(keyed.length).toBe(2);
    expect(keyed.every((s) => s.call_count === 1)).toBe(true);
    const shown = (await api('GET', `/platform/keys/${key.id}`)).json<PlatformKeyDto>();
    expect(shown.lastUsedAt).not.toBeNull();
  });

  it('stops a revoked key within a second, and lists the refusal with the key', async () => {
    await requireKey(true);
    const key = await createKey({ name: 'to revoke' });
    const client = await connect(proxyUrl, { Authorization: `Bearer ${key.secret}` });
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    expect((await api('DELETE', `/platform/keys/${key.id}`, { reason: 'Agent retired' })).statusCode).toBe(200);
    const revokedAt = Date.now();
    let refusedAfter: number | undefined;
    while (refusedAfter === undefined && Date.now() - revokedAt < 5_000) {
      try {
        await client.callTool({ name: 'echo', arguments: { text: 'after' } });
      } catch (error) {
        expect(String(error)).toMatch(/revoked/);
        refusedAfter = Date.now() - revokedAt;
      }
    }
    expect(refusedAfter).toBeLessThan(1_000);
    await client.close().catch(() => undefined);
    await t.app.agentAccess.refusals.flush();
    const shown = (await api('GET', `/platform/keys/${key.id}`)).json<PlatformKeyDto>();
    expect(shown).toMatchObject({ status: 'revoked', revokeReason: 'Agent retired' });
    expect(shown.refusals[0]).toMatchObject({ reason: 'revoked', serverId, count: expect.any(Number) });
  });

  it('answers 403 for a server outside the key’s scope, and 401 for expired and made-up keys', async () => {
    const scoped = await createKey({ name: 'only the first', scopes: { allServers: false, serverIds: [serverId] } });
    const inScope = await connect(proxyUrl, { Authorization: `Bearer ${scoped.secret}` });
    await inScope.close();
    await expect(connect(otherProxyUrl, { Authorization: `Bearer ${scoped.secret}` })).rejects.toThrow(
      /may not call this server/,
    );
    expect((await initialize(otherProxyUrl, { Authorization: `Bearer ${scoped.secret}` })).status).toBe(403);

    const expiring = await createKey({ name: 'short lived', expiresAt: new Date(Date.now() + 1_500).toISOString() });
    while (Date.now() < Date.parse(expiring.expiresAt!)) await new Promise((r) => setTimeout(r, 100));
    const expired = await initialize(proxyUrl, { Authorization: `Bearer ${expiring.secret}` });
    expect(expired.status).toBe(401);
    expect((await expired.json()).error.message).toBe('This platform key has expired');

    // A presented key is checked even when none is required: a wrong key is a mistake to report.
    const madeUp = await initialize(proxyUrl, { Authorization: 'Bearer tsk_000000000000000000000000000000000000' });
    expect(madeUp.status).toBe(401);
    expect((await madeUp.json()).error.message).toBe('Invalid platform key');

    await t.app.agentAccess.refusals.flush();
    const list = (await api('GET', '/platform/keys')).json<PlatformKeyListResult>();
    expect(list.keys.find((k) => k.id === scoped.id)!.refusals.map((r) => r.reason)).toContain('out_of_scope');
    expect(list.keys.find((k) => k.id === expiring.id)!.refusals.map((r) => r.reason)).toContain('expired');
    expect(list.unknownKeyRefusals[0]).toMatchObject({ reason: 'unknown', presentedPrefix: 'tsk_00000000' });
  });

  it("refuses another workspace's key as unknown", async () => {
    const stranger = await (await import('../helpers/accounts')).registerAccount(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${stranger.workspaceId}/platform/keys`,
      headers: bearer(stranger.accessToken),
      payload: { name: 'theirs' },
    });
    const theirs = res.json<CreatedPlatformKeyDto>();
    const refused = await initialize(proxyUrl, { Authorization: `Bearer ${theirs.secret}` });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toBe('Invalid platform key');
  });
});
