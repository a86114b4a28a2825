import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { attributesOf as attrs } from './otlpProto';
import { hex, startOtlpReceiver, waitFor, type OtlpReceiver } from './otlpReceiver';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startLegacySseUpstream, startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

// Issue 37, item 9: every request's span says what the conventions ask of it — legacy SSE ones the
// session, protocol version and client as Streamable ones do; initialize and server/discover the
// upstream's address — and the operation metrics cover every method, not only tools/call.
jest.setTimeout(90_000);

describe(`spans and metrics of every MCP request (${engineName})`, () => {
  let t: ProxyTestApp;
  let streamable: SdkUpstream;
  let legacy: SdkUpstream;
  let receiver: OtlpReceiver;
  let legacyServer: { server: { id: string }; proxyUrl: URL };
  let streamableServer: { server: { id: string }; proxyUrl: URL };

  beforeAll(async () => {
    streamable = await startStreamableUpstream({ json: true, stateful: true });
    legacy = await startLegacySseUpstream();
    receiver = await startOtlpReceiver();
    t = await startProxyApp({ telemetryMetricsIntervalMs: 400 });
    // Registered before the workspace exports anything: the spans may not rely on having seen the
    // servers' live messages (as after a restart, or a server registered on another instance).
    legacyServer = await t.register(legacy.url, { transport: 'sse' });
    streamableServer = await t.register(streamable.url);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters`,
      headers: bearer(t.account.accessToken),
      payload: { name: 'collector', endpoint: receiver.url, protocol: 'http/protobuf' },
    });
    expect(res.statusCode).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await streamable.close();
    await legacy.close();
  });

  const spansOf = (serverId: string) =>
    receiver.spans().filter((span) => attrs(span.attributes)['toolscope.server.id'] === serverId);

  it('gives legacy SSE spans the session the agent holds, the protocol version and the client', async () => {
    const { server, proxyUrl } = legacyServer;
    const client = new Client({ name: 'legacy-traced-agent', version: '0.3.0' });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the legacy transport is what this test is about
    const transport = new SSEClientTransport(new URL(`${proxyUrl.pathname}/sse`, t.base));
    await client.connect(transport);
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'traced' } });
    await client.close();

    const spans = await waitFor(() => {
      const found = spansOf(server.id);
      const names = new Set(found.map((span) => span.name));
      return names.has('initialize') && names.has('tools/list') && names.has('tools/call echo') && found;
    });
    // The id the agent holds on this transport: the session of the message endpoint it was given.
    const endpoint = (transport as unknown as { _endpoint?: URL })._endpoint;
    const agentSessionId = endpoint?.searchParams.get('session');
    expect(agentSessionId).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const span of spans) {
      expect({ name: span.name, ...attrs(span.attributes) }).toMatchObject({
        name: span.name,
        'mcp.session.id': agentSessionId,
        'mcp.protocol.version': '2025-11-25',
        'toolscope.client.name': 'legacy-traced-agent',
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(legacy.url).port),
      });
    }
  });

  // Issue 37, item 3 on the legacy transport: the traceparent HTTP header counts as on Streamable HTTP.
  it('honours a legacy SSE agent’s traceparent header: span parent, upstream header and recorded call', async () => {
    const { server, proxyUrl } = legacyServer;
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const agentSpan = '00f067aa0ba902b7';
    const client = new Client({ name: 'legacy-header-agent', version: '1.0.0' });
    await client.connect(
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the legacy transport is what this test is about
      new SSEClientTransport(new URL(`${proxyUrl.pathname}/sse`, t.base), {
        requestInit: { headers: { traceparent: `00-${traceId}-${agentSpan}-01` } },
      }),
    );
    await client.callTool({ name: 'echo', arguments: { text: 'traced by header' } });
    await client.close();

    const call = await waitFor(() =>
      spansOf(server.id).find((span) => span.name === 'tools/call echo' && hex(span.traceId) === traceId),
    );
    expect(hex(call.parentSpanId!)).toBe(agentSpan);
    // The upstream's parent is the span exported for the call, in the agent's trace.
    expect(legacy.requests.map((headers) => headers.traceparent)).toContain(`00-${traceId}-${hex(call.spanId)}-01`);
    // The span leaves from the live events; the row is written by the recorder's next batch.
    const recorded = async () =>
      t.database.db.query<{ traceparent: string | null }>(
        `select traceparent from tool_calls where server_id = $1 and traceparent is not null`,
        [server.id],
      );
    let rows = await recorded();
    while (rows.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = await recorded();
    }
    expect(rows).toEqual([{ traceparent: `00-${traceId}-${agentSpan}-01` }]);
  });

  it('gives initialize and server/discover spans the upstream address, and measures every method', async () => {
    const { server, proxyUrl } = streamableServer;
    const client = new Client({ name: 'measured-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl.pathname, t.base)));
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'measured' } });
    await client.close();
    // A 2026-07-28 agent's first request, stateless: the fixture does not know it (an error answer
    // is a span too).
    const discover = await fetch(new URL(proxyUrl.pathname, t.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'discover-1', method: 'server/discover', params: {} }),
    });
    await discover.text();

    const upstreamAddress = { 'server.address': '127.0.0.1', 'server.port': Number(new URL(streamable.url).port) };
    const spans = await waitFor(() => {
      const found = spansOf(server.id);
      return found.some((span) => span.name === 'server/discover') && found;
    });
    const initialize = spans.find((span) => span.name === 'initialize');
    expect(attrs(initialize?.attributes)).toMatchObject(upstreamAddress);
    expect(attrs(spans.find((span) => span.name === 'server/discover')?.attributes)).toMatchObject(upstreamAddress);

    // mcp.server.operation.duration has a point per method, each point counted once.
    const methods = await waitFor(() => {
      const points = receiver
        .metrics()
        .filter((metric) => metric.name === 'mcp.server.operation.duration')
        .flatMap((metric) => metric.histogram!.dataPoints)
        .map((point) => attrs(point.attributes))
        .filter((point) => point['toolscope.server.id'] === server.id);
      const seen = new Set(points.map((point) => point['mcp.method.name']));
      return ['initialize', 'tools/list', 'tools/call', 'server/discover'].every((m) => seen.has(m)) && points;
    });
    expect(methods.find((point) => point['mcp.method.name'] === 'tools/call')).toMatchObject({
      'gen_ai.tool.name': 'echo',
    });
    expect(methods.find((point) => point['mcp.method.name'] === 'tools/list')?.['gen_ai.tool.name']).toBeUndefined();
    expect(methods.find((point) => point['mcp.method.name'] === 'server/discover')).toMatchObject({
      'error.type': expect.stringMatching(/^-32\d{3}$/),
    });
  });
});
