import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import type { ReplayResult, SessionListResult } from '../../../src/contract/sessions';
import type { ActivityStreamResult, ToolCallsLive } from '../../../src/contract/activity';

jest.setTimeout(60_000);

// A real agent (the official SDK client) runs a scripted session through the proxy to a real
// MCP server; the sessions API then shows that session, its calls in order, and the replay.
describe(`a recorded session through the sessions API (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let serverId: string;
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  const get = (path: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${t.account.workspaceId}${path}`,
      headers: bearer(t.account.accessToken),
    });

  beforeAll(async () => {
    t = await startProxyApp();
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    const { server, proxyUrl } = await t.register(upstream.url, { name: 'fixture' });
    serverId = server.id;
    const client = new Client({ name: 'journey-agent', version: '2.0.0' });
    const transport = new StreamableHTTPClientTransport(proxyUrl);
    await client.connect(transport);
    await client.callTool({
      name: 'echo',
      arguments: { text: 'first words' },
      _meta: { 'com.example/reasoning': 'Say hello first', traceparent },
    });
    await client.callTool({ name: 'fail', arguments: {} });
    await client.callTool({ name: 'echo', arguments: { text: 'second words' } });
    // Ending the session explicitly (HTTP DELETE) is what makes it 'ended' rather than idle.
    await transport.terminateSession();
    await client.close();
    await t.app.recorder.flush();
  });
  afterAll(async () => {
    await (upstream as SdkUpstream | undefined)?.close();
    await (t as ProxyTestApp | undefined)?.close();
  });

  it('lists the session with its client, server and counts, and finds it by a word of its arguments', async () => {
    const list = (await get('/sessions')).json<SessionListResult>();
    expect(list.total).toBe(1);
    expect(list.sessions[0]).toMatchObject({
      serverId,
      serverName: 'fixture',
      clientName: 'journey-agent',
      clientVersion: '2.0.0',
      callCount: 3,
      errorCount: 1,
    });
    expect(list.sessions[0].protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await get('/sessions?q=second')).json<SessionListResult>().total).toBe(1);
    expect((await get('/sessions?q=third')).json<SessionListResult>().total).toBe(0);
  });

  it('replays the messages in the order they were sent, with each call beside its result', async () => {
    const [session] = (await get('/sessions')).json<SessionListResult>().sessions;
    const replay = (await get(`/sessions/${session.id}/replay`)).json<ReplayResult>();
    expect(replay.total).toBe(replay.messages.length);
    expect(replay.messages.map((m) => m.seq)).toEqual([...replay.messages.map((m) => m.seq)].sort((a, b) => a - b));
    expect(replay.messages[0]).toMatchObject({ direction: 'client_to_server', kind: 'request', method: 'initialize' });
    const calls = replay.messages.filter((m) => m.method === 'tools/call');
    expect(calls.map((m) => (m.payload as { params: { name: string } }).params.name)).toEqual(['echo', 'fail', 'echo']);
    expect(replay.toolCalls.map((c) => [c.toolName, c.status])).toEqual([
      ['echo', 'ok'],
      ['fail', 'error'],
      ['echo', 'ok'],
    ]);
    expect(replay.toolCalls[1].errorMessage).toBe('the tool broke');
    const times = replay.messages.map((m) => Date.parse(m.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('keeps the reasoning and trace context the agent attached', async () => {
    const { toolCalls } = (await get('/tool-calls/live')).json<ToolCallsLive>();
    expect(toolCalls.map((c) => c.toolName)).toEqual(['echo', 'fail', 'echo']);
    const first = toolCalls[2];
    expect(first.arguments).toEqual({ text: 'first words' });
    expect(first.meta).toMatchObject({ 'com.example/reasoning': 'Say hello first' });
    expect(first.traceparent ?? (first.meta as { traceparent?: string }).traceparent).toBe(traceparent);
  });

  it('shows the calls and the session start and end in the activity stream, newest first', async () => {
    const { events } = (await get('/sessions/activity-stream')).json<ActivityStreamResult>();
    expect(events.map((e) => (e.kind === 'tool_call' ? e.toolCall.toolName : e.kind))).toEqual([
      'session_ended',
      'echo',
      'fail',
      'echo',
      'session_started',
    ]);
  });
});
