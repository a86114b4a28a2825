import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(60_000);

// Recording never delays the agent, and a graceful shutdown writes everything still queued.
describe('recorder on shutdown', () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  beforeAll(async () => {
    // A flush interval far beyond the test: only the shutdown can write these rows.
    t = await startProxyApp({ recorderFlushMs: 3_600_000 });
    upstream = await startStreamableUpstream({ json: true, stateful: true });
  });
  afterAll(async () => {
    await upstream.close();
    await t.database.drop();
  });

  it('answers before anything is stored, then flushes every session and call when the app closes', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(proxyUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'shutdown-agent', version: '1' },
        },
      }),
    });
    const session = {
      ...headers,
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-11-25',
    };
    await (
      await fetch(proxyUrl, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    for (let id = 1; id <= 5; id++) {
      const res = await fetch(proxyUrl, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: `n${id}` } },
        }),
      });
      expect((await res.json()).result.content[0].text).toBe(`echo: n${id}`);
    }
    expect(await t.database.db.query('select id from tool_calls where server_id = $1', [server.id])).toEqual([]);
    expect(t.app.recorder.stats().queuedRows).toBeGreaterThan(0);

    await t.app.close();

    const calls = await t.database.db.query<{ status: string }>('select status from tool_calls where server_id = $1', [
      server.id,
    ]);
    expect(calls).toHaveLength(5);
    const sessions = await t.database.db.query<{ status: string; message_count: number; client_name: string }>(
      'select status, message_count, client_name from sessions where server_id = $1',
      [server.id],
    );
    expect(sessions).toEqual([{ status: 'ended', message_count: 13, client_name: 'shutdown-agent' }]);
  });
});
