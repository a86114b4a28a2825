import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startProxyApp, type ProxyTestApp } from './support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from './support/sdkUpstream';
import { recordedCalls, recordedMessages } from '../helpers/recordedRows';

// A client through the proxy sees exactly what it sees talking to the upstream directly, for
// every Streamable HTTP flavour the SDK server offers, and the recorder keeps what was sent.
interface Observed {
  tools: unknown;
  echo: unknown;
  fail: unknown;
  prompts: unknown;
  prompt: unknown;
  resources: unknown;
  resource: unknown;
  progress: unknown[];
  logs: unknown[];
  sampled?: unknown;
}

async function exercise(url: URL, withSampling: boolean): Promise<Observed> {
  const client = new Client({ name: 'test-agent', version: '9.9.9' }, { capabilities: { sampling: {} } });
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
  client.setRequestHandler(CreateMessageRequestSchema, () =>
    Promise.resolve({
      role: 'assistant',
      content: { type: 'text', text: 'forty-two' },
      model: 'fixture-model',
    }),
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  const progress: unknown[] = [];
  try {
    const observed: Observed = {
      tools: await client.listTools(),
      echo: await client.callTool({ name: 'echo', arguments: { text: 'hi' } }),
      fail: await client.callTool({ name: 'fail', arguments: {} }),
      prompts: await client.listPrompts(),
      prompt: await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } }),
      resources: await client.listResources(),
      resource: await client.readResource({ uri: 'fixture://readme' }),
      progress,
      logs,
    };
    await client.callTool({ name: 'count', arguments: { to: 3 } }, undefined, {
      onprogress: (p) => void progress.push(p),
    });
    if (withSampling) observed.sampled = await client.callTool({ name: 'ask', arguments: { question: 'meaning?' } });
    return observed;
  } finally {
    await client.close();
  }
}

const flavours = [
  { name: 'SSE responses, stateful', json: false, stateful: true },
  { name: 'JSON responses, stateful', json: true, stateful: true },
  { name: 'SSE responses, stateless', json: false, stateful: false },
  { name: 'JSON responses, stateless', json: true, stateful: false },
];

jest.setTimeout(60_000);

describe('Streamable HTTP proxy', () => {
  let t: ProxyTestApp;
  beforeAll(async () => {
    t = await startProxyApp();
  });
  afterAll(() => t.close());

  describe.each(flavours)('$name', ({ json, stateful }) => {
    let upstream: SdkUpstream;
    beforeAll(async () => {
      upstream = await startStreamableUpstream({ json, stateful });
    });
    afterAll(() => upstream.close());

    it('gives the client the same answers as the upstream itself, and records them', async () => {
      // Sampling needs a channel back to the client: SSE responses of a stateful server.
      const sampling = stateful && !json;
      const direct = await exercise(new URL(upstream.url), sampling);
      const { server, proxyUrl } = await t.register(upstream.url);
      const proxied = await exercise(proxyUrl, sampling);
      expect(proxied).toEqual(direct);
      if (!json) {
        expect(proxied.progress).toHaveLength(3);
        expect(proxied.logs).toEqual(['step 1', 'step 2', 'step 3']);
      }
      if (sampling) expect(proxied.sampled).toEqual({ content: [{ type: 'text', text: 'client said: forty-two' }] });

      await t.app.recorder.flush();
      const sessions = await t.database.db.query<{
        id: string;
        client_name: string;
        client_version: string;
        protocol_version: string;
        mcp_session_id: string | null;
        call_count: number;
      }>('select * from sessions where server_id = $1', [server.id]);
      expect(sessions.length).toBeGreaterThanOrEqual(1);
      expect(sessions[0]).toMatchObject({ client_name: 'test-agent', client_version: '9.9.9' });
      if (stateful) {
        expect(sessions).toHaveLength(1);
        expect(sessions[0].mcp_session_id).toEqual(expect.any(String));
        expect(sessions[0].protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      const calls = await recordedCalls(t.database.db, 'tc.server_id = $1', [server.id]);
      const byName = Object.fromEntries(calls.map((c) => [c.tool_name, c]));
      expect(byName.echo).toMatchObject({
        status: 'ok',
        arguments: { text: 'hi' },
        result: proxied.echo,
        error_message: null,
      });
      // Counted by the tokenizer (one truth for tokens, docs/analytics.md), not estimated from bytes.
      expect(Number(byName.echo.result_tokens)).toBeGreaterThan(0);
      expect(byName.echo.response_bytes).toBeGreaterThan(0);
      expect(byName.fail).toMatchObject({ status: 'error', error_message: 'the tool broke' });
      expect(byName.count).toMatchObject({ status: 'ok', arguments: { to: 3 } });
      if (sampling) expect(byName.ask).toMatchObject({ status: 'ok' });

      const replays = await Promise.all(sessions.map((session) => recordedMessages(t.database.db, session.id)));
      const methods = replays.flat().map(({ direction, method, kind }) => ({ direction, method, kind }));
      // The call's own messages, as sent and answered, in their place in the session's replay.
      const isEchoCall = (m: { method: string | null; payload: unknown }) =>
        m.method === 'tools/call' && (m.payload as { params: { name: string } }).params.name === 'echo';
      const echoReplay = replays.find((messages) => messages.some(isEchoCall))!;
      const echoRequest = echoReplay.find(isEchoCall)!;
      const echoResponse = echoReplay.find(
        (m) => m.direction === 'server_to_client' && m.kind === 'response' && m.jsonrpc_id === echoRequest.jsonrpc_id,
      )!;
      expect(echoRequest.payload).toMatchObject({
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'hi' } },
      });
      expect(echoResponse.payload).toEqual({
        jsonrpc: '2.0',
        id: (echoRequest.payload as { id: unknown }).id,
        result: proxied.echo,
      });
      expect(Number(echoResponse.seq)).toBeGreaterThan(Number(echoRequest.seq));
      const sent = methods
        .filter((m) => m.direction === 'client_to_server' && m.kind === 'request')
        .map((m) => m.method);
      expect(sent).toEqual(
        expect.arrayContaining([
          'initialize',
          'tools/list',
          'tools/call',
          'prompts/list',
          'prompts/get',
          'resources/list',
          'resources/read',
        ]),
      );
      // A progress stream is kept as its first and last notification, the last carrying the count.
      const progress = replays.flat().filter((m) => m.method === 'notifications/progress');
      if (!json) expect(progress.map((m) => m.progress_count ?? null)).toEqual([null, 3]);
      if (sampling)
        expect(methods).toContainEqual({
          direction: 'server_to_client',
          method: 'sampling/createMessage',
          kind: 'request',
        });

      const usage = await t.database.db.query<{ tool_name: string; calls: number; errors: number }>(
        'select tool_name, calls, errors from usage_minutes where server_id = $1 order by tool_name',
        [server.id],
      );
      expect(usage.find((u) => u.tool_name === 'fail')).toMatchObject({ calls: 1, errors: 1 });
    });

    // SSE answers are streams: only JSON answers have a length to pass on.
    if (json) {
      it('passes a JSON answer on with its length, so it ends with its last byte', async () => {
        const { proxyUrl } = await t.register(upstream.url);
        const headers = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        };
        const init = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        };
        const direct = await fetch(upstream.url, { method: 'POST', headers, body: JSON.stringify(init) });
        const proxied = await fetch(proxyUrl, { method: 'POST', headers, body: JSON.stringify(init) });
        const [directBody, proxiedBody] = [await direct.text(), await proxied.text()];
        expect(direct.headers.get('content-length')).toBe(String(Buffer.byteLength(directBody)));
        expect(proxied.headers.get('content-length')).toBe(String(Buffer.byteLength(proxiedBody)));
        expect(proxied.headers.get('transfer-encoding')).toBeNull();
        expect(JSON.parse(proxiedBody)).toMatchObject({
          jsonrpc: '2.0',
          id: 1,
          result: { serverInfo: expect.any(Object) },
        });
      });
    }
  });
});
