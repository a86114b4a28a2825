import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(60_000);

// What the agent gets, and what is recorded, when the upstream is down, hangs or breaks; and
// what never crosses the proxy (foreign origins, the agent's own credentials).
const call = (id: number, name = 'echo') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: { text: 'x' } },
});
const post = (url: URL, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe('proxy safety and failures', () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  beforeAll(async () => {
    t = await startProxyApp({ upstreamTimeoutMs: 400 });
    upstream = await startStreamableUpstream({ json: true, stateful: false });
  });
  afterAll(async () => {
    await upstream.close();
    await t.close();
  });

  it('answers a call to an unreachable upstream with a JSON-RPC error echoing the id, and records it', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const { server, proxyUrl } = await t.register(`http://127.0.0.1:${port}/mcp`);

    const res = await post(proxyUrl, call(41));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 41,
      error: { code: -32010, message: expect.stringMatching(/^Tool server unreachable/) },
    });

    // An SDK client sees it as the call's error.
    const client = new Client({ name: 'down-agent', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(proxyUrl))).rejects.toBeInstanceOf(McpError);

    await t.app.recorder.flush();
    const calls = await t.database.db.query<{ status: string; error_message: string; jsonrpc_id: string }>(
      'select status, error_message, jsonrpc_id from tool_calls where server_id = $1',
      [server.id],
    );
    expect(calls).toEqual([{ status: 'error', error_message: body.error.message, jsonrpc_id: '41' }]);
  });

  it('answers a hanging upstream within the upstream timeout', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    upstream.hang(true);
    try {
      const res = await post(proxyUrl, [call(1), call(2)]);
      expect(await res.json()).toEqual([
        {
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32011,
            message: 'Tool server did not answer within 400 ms',
            data: { source: 'toolscope', reason: 'timeout' },
          },
        },
        {
          jsonrpc: '2.0',
          id: 2,
          error: {
            code: -32011,
            message: 'Tool server did not answer within 400 ms',
            data: { source: 'toolscope', reason: 'timeout' },
          },
        },
      ]);
    } finally {
      upstream.hang(false);
    }
    await t.app.recorder.flush();
    const [{ count }] = await t.database.db.query<{ count: number }>(
      "select count(*)::int as count from tool_calls where server_id = $1 and status = 'error'",
      [server.id],
    );
    expect(count).toBe(2);
  });

  it('turns an upstream 5xx page into a JSON-RPC error', async () => {
    const broken = http.createServer((_req, res) =>
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down for maintenance</h1>'),
    );
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', () => r()));
    try {
      const { proxyUrl } = await t.register(`http://127.0.0.1:${(broken.address() as AddressInfo).port}/mcp`);
      const res = await post(proxyUrl, call(7));
      expect(await res.json()).toMatchObject({
        id: 7,
        error: { code: -32012, message: 'Tool server failed with HTTP 503' },
      });
    } finally {
      broken.closeAllConnections();
      await new Promise((r) => broken.close(r));
    }
  });

  it('refuses a foreign Origin with 403 and accepts no Origin or its own', async () => {
    const { proxyUrl } = await t.register(upstream.url);
    const foreign = await post(proxyUrl, call(1), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ message: 'Origin not allowed', code: 'forbidden' });
    expect((await post(proxyUrl, call(2))).status).toBe(200);
    expect((await post(proxyUrl, call(3), { origin: t.base })).status).toBe(200);
  });

  it("sends the server's stored credentials upstream, never the agent's", async () => {
    const { proxyUrl } = await t.register(upstream.url, {
      headers: { Authorization: 'Bearer upstream-secret', 'X-Tenant': 'acme' },
    });
    const res = await post(proxyUrl, call(5), {
      authorization: 'Bearer agent-token',
      cookie: 'session=agent',
      'x-api-key': 'agent-key',
      'user-agent': 'credential-check',
    });
    expect(await res.json()).toMatchObject({ id: 5, result: { content: [{ type: 'text', text: 'echo: x' }] } });
    // (Schema discovery talks to the same upstream in the background: pick the agent's request.)
    const seen = upstream.requests.filter((h) => h['user-agent'] === 'credential-check');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ authorization: 'Bearer upstream-secret', 'x-tenant': 'acme' });
    expect(seen[0].cookie).toBeUndefined();
    expect(seen[0]['x-api-key']).toBeUndefined();
  });

  it('answers an unknown proxy key with 404 and a too-large body with 413', async () => {
    const unknown = await post(new URL('/mcp/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', t.base), call(1));
    expect(unknown.status).toBe(404);
    const { proxyUrl } = await t.register(upstream.url);
    const huge = await post(proxyUrl, {
      ...call(1),
      params: { name: 'echo', arguments: { text: 'x'.repeat(t.config.proxyBodyLimitBytes) } },
    });
    expect(huge.status).toBe(413);
  });

  it('tells the monitor about tool lists and list changes, and serves what its rewriter returns', async () => {
    const stateful = await startStreamableUpstream({ json: false, stateful: true });
    try {
      const { server, proxyUrl } = await t.register(stateful.url);
      const lists: { serverId: string; tools: unknown[] }[] = [];
      const changes: { serverId: string; kind: string }[] = [];
      const onList = (e: { serverId: string; tools: unknown[] }) => void lists.push(e);
      const onChange = (e: { serverId: string; kind: string }) => void changes.push(e);
      t.app.proxyEvents.on('tools_list', onList);
      t.app.proxyEvents.on('list_changed', onChange);
      const pinned = { tools: [{ name: 'echo', description: 'pinned', inputSchema: { type: 'object' as const } }] };
      const rewrite = jest
        .spyOn(t.app.toolsListRewriter, 'rewrite')
        .mockImplementation((serverId, result) => (serverId === server.id ? pinned : result));
      const hasPins = jest
        .spyOn(t.app.toolsListRewriter, 'hasPins')
        .mockImplementation((serverId) => serverId === server.id);
      const client = new Client({ name: 'drift-agent', version: '1' });
      try {
        await client.connect(new StreamableHTTPClientTransport(proxyUrl));
        expect(await client.listTools()).toEqual(pinned);
        expect(
          lists.filter((l) => l.serverId === server.id)[0].tools.map((tool) => (tool as { name: string }).name),
        ).toContain('count');
        const changed = new Promise<void>((resolve) => t.app.proxyEvents.once('list_changed', () => resolve()));
        await client.callTool({ name: 'grow', arguments: {} });
        await changed;
        expect(changes).toContainEqual(expect.objectContaining({ serverId: server.id, kind: 'tools' }));
      } finally {
        rewrite.mockRestore();
        hasPins.mockRestore();
        t.app.proxyEvents.off('tools_list', onList);
        t.app.proxyEvents.off('list_changed', onChange);
        await client.close();
      }
    } finally {
      await stateful.close();
    }
  });
});
