// A real proxy and database with SDK peers: starting them takes seconds on a loaded machine.
jest.setTimeout(90_000);

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

// Issue 37: the official SDK v2 client (@modelcontextprotocol/client, a package of its own with its
// own transport and protocol core) sees through the proxy exactly what it sees directly, against an
// SDK 1.32 server answering in SSE and in JSON.
describe.each([
  { answers: 'SSE', json: false },
  { answers: 'JSON', json: true },
])('the SDK v2 client through the proxy ($answers answers)', ({ json }) => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json, stateful: true });
    t = await startProxyApp();
  });
  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    await (upstream as SdkUpstream | undefined)?.close();
  });

  async function observe(url: URL) {
    const client = new Client({ name: 'sdk-v2-agent', version: '2.4.0' });
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params));
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      const progress: unknown[] = [];
      return {
        protocolVersion: client.getNegotiatedProtocolVersion(),
        server: client.getServerVersion(),
        tools: await client.listTools(),
        echo: await client.callTool({ name: 'echo', arguments: { text: 'through the proxy' } }),
        fail: await client.callTool({ name: 'fail', arguments: {} }),
        count: await client.callTool(
          { name: 'count', arguments: { to: 3 } },
          { onprogress: (p) => void progress.push(p) },
        ),
        progress,
        logs,
        prompt: await client.getPrompt({ name: 'greet', arguments: { name: 'v2' } }),
        resource: await client.readResource({ uri: 'fixture://readme' }),
      };
    } finally {
      await client.close();
    }
  }

  it('lists and calls tools, prompts and resources with the same answers as directly', async () => {
    const direct = await observe(new URL(upstream.url));
    const { server, proxyUrl } = await t.register(upstream.url);
    const proxied = await observe(proxyUrl);
    expect(proxied).toEqual(direct);
    expect(proxied.protocolVersion).toBe('2025-11-25');
    expect(proxied.tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'count']));
    expect(proxied.echo.content).toEqual([{ type: 'text', text: 'echo: through the proxy' }]);
    // A JSON answer has no room for notifications: progress arrives with SSE answers only.
    expect(proxied.progress).toHaveLength(json ? 0 : 3);

    await t.app.recorder.flush();
    const calls = await t.database.db.query<{ tool_name: string; status: string; client_name: string }>(
      `select tool_calls.tool_name, tool_calls.status, sessions.client_name
         from tool_calls join sessions on sessions.id = tool_calls.session_id
        where tool_calls.server_id = $1 order by tool_calls.started_at`,
      [server.id],
    );
    expect(calls).toEqual([
      { tool_name: 'echo', status: 'ok', client_name: 'sdk-v2-agent' },
      { tool_name: 'fail', status: 'error', client_name: 'sdk-v2-agent' },
      { tool_name: 'count', status: 'ok', client_name: 'sdk-v2-agent' },
    ]);
  });
});
