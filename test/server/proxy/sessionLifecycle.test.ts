import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LiveMessage } from '../../../src/contract/live';
import type { SessionDto, ToolCallDto } from '../../../src/contract/sessions';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';

jest.setTimeout(60_000);

// A session seen from the dashboard: started, its calls, ended by the agent's DELETE — in the
// database and on the workspace's live stream, in that order.
describe('session lifecycle through the proxy', () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  beforeAll(async () => {
    t = await startProxyApp();
    upstream = await startStreamableUpstream({ json: false, stateful: true });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('records start, calls and the DELETE that ends it, and announces each once stored', async () => {
    const { server, proxyUrl } = await t.register(upstream.url);
    const live: LiveMessage[] = [];
    const unsubscribe = t.app.bus.subscribe(t.account.workspaceId, (message) => {
      // tool_call_started comes only for a call still in flight when a batch is written: whether
      // it does depends on the machine's speed, not on the lifecycle under test.
      if (!['server_updated', 'notification', 'tool_call_started'].includes(message.type)) live.push(message);
    });
    const transport = new StreamableHTTPClientTransport(proxyUrl);
    const client = new Client({ name: 'lifecycle-agent', version: '3.1.4' });
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { text: 'one' } });
    await client.callTool({ name: 'fail', arguments: {} });
    await transport.terminateSession();
    await client.close();
    await t.app.recorder.flush();
    unsubscribe();

    const [row] = await t.database.db.query<{
      status: string;
      ended_at: Date | null;
      call_count: number;
      error_count: number;
      client_name: string;
    }>('select status, ended_at, call_count, error_count, client_name from sessions where server_id = $1', [server.id]);
    expect(row).toMatchObject({ status: 'ended', call_count: 2, error_count: 1, client_name: 'lifecycle-agent' });
    expect(row.ended_at).not.toBeNull();

    expect(live.map((m) => m.type)).toEqual(['session_started', 'tool_call', 'tool_call', 'session_ended']);
    const started = live[0].data as SessionDto;
    const calls = live.slice(1, 3).map((m) => m.data as ToolCallDto);
    const ended = live[3].data as SessionDto;
    expect(started).toMatchObject({
      serverId: server.id,
      serverName: 'upstream',
      clientName: 'lifecycle-agent',
      clientVersion: '3.1.4',
      status: 'active',
    });
    expect(calls.map((c) => [c.toolName, c.status, c.sessionId])).toEqual([
      ['echo', 'ok', started.id],
      ['fail', 'error', started.id],
    ]);
    expect(ended).toMatchObject({ id: started.id, status: 'ended', callCount: 2, errorCount: 1 });
  });
});
