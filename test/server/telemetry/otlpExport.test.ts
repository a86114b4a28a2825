import { OPERATION_DURATION_BUCKETS } from '../../../src/server/telemetry/exporterRuntime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { attributesOf as attrs, decodeMetrics, decodeSpans } from './otlpProto';
import { hex, startOtlpReceiver, waitFor } from './otlpReceiver';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

// Scripted MCP traffic through the real proxy, exported to an OTLP/HTTP receiver written here:
// protobuf decoded with the official definitions, JSON parsed; span names, attributes, the agent's
// traceparent as parent, and metric points.
jest.setTimeout(90_000);

describe(`OTLP export of proxied MCP traffic (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;

  beforeAll(async () => {
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    t = await startProxyApp({ telemetryMetricsIntervalMs: 400 });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  const addExporter = async (payload: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters`,
      headers: bearer(t.account.accessToken),
      payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string; headers: Record<string, string> }>();
  };

  it('exports a span per request as protobuf and JSON, parented by the agent traceparent, forwards its own span upstream, with metric points', async () => {
    const protoReceiver = await startOtlpReceiver();
    const jsonReceiver = await startOtlpReceiver();
    try {
      const proto = await addExporter({
        name: 'collector',
        endpoint: `${protoReceiver.url}/otlp`,
        protocol: 'http/protobuf',
        headers: { 'x-api-key': 'k-123' },
      });
      expect(proto.headers).toEqual({ 'x-api-key': '••••' });
      await addExporter({ name: 'json', endpoint: jsonReceiver.url, protocol: 'http/json', signals: ['traces'] });

      const { server, proxyUrl } = await t.register(upstream.url);
      const client = new Client({ name: 'otel-agent', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(proxyUrl);
      await client.connect(transport);
      // The session id the agent holds (the proxy's sealed one): its spans and ours join on it.
      const heldSessionId = transport.sessionId;
      expect(heldSessionId).toMatch(/^ts1\./);
      await client.listTools();
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const agentSpan = '00f067aa0ba902b7';
      await client.callTool({
        name: 'echo',
        arguments: { text: 'hi' },
        _meta: { traceparent: `00-${traceId}-${agentSpan}-01` },
      });
      await client.callTool({ name: 'fail', arguments: {} });
      await client.close();

      const protoTraces = await waitFor(() => {
        const bodies = protoReceiver.received.filter((r) => r.path === '/otlp/v1/traces');
        const spans = bodies.flatMap((r) => decodeSpans(r.body));
        return (
          spans.some((span) => span.name === 'tools/call fail') &&
          spans.some((span) => span.name === 'tools/list') && { bodies, spans }
        );
      });
      expect(protoTraces.bodies[0].contentType).toBe('application/x-protobuf');
      expect(protoTraces.bodies[0].headers['x-api-key']).toBe('k-123');
      const echo = protoTraces.spans.find((s) => s.name === 'tools/call echo')!;
      const fail = protoTraces.spans.find((s) => s.name === 'tools/call fail')!;
      expect(hex(echo.traceId)).toBe(traceId);
      expect(hex(echo.parentSpanId!)).toBe(agentSpan);
      expect(hex(echo.spanId)).toMatch(/^[0-9a-f]{16}$/);
      expect(hex(echo.spanId)).not.toBe(agentSpan);
      expect(attrs(echo.attributes)).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo',
        'gen_ai.operation.name': 'execute_tool',
        'toolscope.workspace.id': t.account.workspaceId,
        'toolscope.server.id': server.id,
        'server.address': '127.0.0.1',
        'mcp.protocol.version': expect.any(String),
        'mcp.session.id': heldSessionId,
        'jsonrpc.request.id': expect.any(String),
      });
      expect(attrs(fail.attributes)['error.type']).toBe('tool_error');
      expect(fail.status?.code).toBe(2);
      // A call without a traceparent has no parent; its trace is its MCP session's.
      expect(fail.parentSpanId?.length ?? 0).toBe(0);

      // Requests other than tools/call get spans of their own, named by their method.
      const list = protoTraces.spans.find((s) => s.name === 'tools/list')!;
      expect(attrs(list.attributes)).toMatchObject({
        'mcp.method.name': 'tools/list',
        'toolscope.server.id': server.id,
        'mcp.session.id': heldSessionId,
      });
      expect(protoTraces.spans.some((s) => s.name === 'initialize')).toBe(true);
      expect(hex(fail.traceId)).toBe(hex(list.traceId));

      // Toolscope's own span id went upstream as the parent of whatever the tool server traces.
      const sentUpstream = upstream.requests
        .map((headers) => headers.traceparent)
        .filter((value): value is string => typeof value === 'string');
      expect(sentUpstream).toContain(`00-${traceId}-${hex(echo.spanId)}-01`);
      expect(sentUpstream).toContain(`00-${hex(fail.traceId)}-${hex(fail.spanId)}-01`);
      expect(sentUpstream).toContain(`00-${hex(list.traceId)}-${hex(list.spanId)}-01`);
      // The agent's own span is the proxy span's parent, never forwarded as if it were the proxy's.
      expect(sentUpstream).not.toContain(`00-${traceId}-${agentSpan}-01`);

      const jsonSpans = await waitFor(() => {
        const spans = jsonReceiver.received
          .filter((r) => r.path === '/v1/traces')
          .flatMap((r) =>
            (
              JSON.parse(r.body.toString()) as {
                resourceSpans: {
                  scopeSpans: { spans: { name: string; traceId: string; parentSpanId?: string }[] }[];
                }[];
              }
            ).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)),
          );
        return spans.some((span) => span.name === 'tools/call echo') && spans;
      });
      expect(jsonReceiver.received[0].contentType).toBe('application/json');
      const jsonEcho = jsonSpans.find((s) => s.name === 'tools/call echo')!;
      expect(jsonEcho.traceId.toLowerCase()).toBe(traceId);
      expect(jsonEcho.parentSpanId?.toLowerCase()).toBe(agentSpan);
      // Traces only: no metrics went to the JSON exporter.
      expect(jsonReceiver.received.some((r) => r.path.endsWith('/v1/metrics'))).toBe(false);

      const points = await waitFor(() => {
        const metrics = protoReceiver.received
          .filter((r) => r.path === '/otlp/v1/metrics')
          .flatMap((r) => decodeMetrics(r.body));
        const duration = metrics.filter((m) => m.name === 'mcp.server.operation.duration');
        const count = duration
          .flatMap((m) => m.histogram!.dataPoints)
          .filter((p) => attrs(p.attributes)['mcp.method.name'] === 'tools/call')
          .reduce((n, p) => n + Number(p.count), 0);
        return count >= 2 && duration;
      });
      const tools = new Set(
        points.flatMap((m) =>
          m
            .histogram!.dataPoints.map((p) => attrs(p.attributes))
            .filter((a) => a['mcp.method.name'] === 'tools/call')
            .map((a) => a['gen_ai.tool.name']),
        ),
      );
      expect(tools).toEqual(new Set(['echo', 'fail']));
      // Seconds, bucketed by the conventions' boundaries (not the SDK's millisecond defaults).
      for (const point of points.flatMap((m) => m.histogram!.dataPoints))
        expect(point.explicitBounds.map(Number)).toEqual(OPERATION_DURATION_BUCKETS);

      const counters = await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters/${proto.id}/metrics`,
        headers: bearer(t.account.accessToken),
      });
      // initialize, tools/list and the two calls.
      expect(counters.json()).toMatchObject({ exportedSpans: 4, failedExports: 0, droppedSpans: 0, lastError: null });
      expect(counters.json().exportedMetricPoints).toBeGreaterThan(0);
    } finally {
      await protoReceiver.close();
      await jsonReceiver.close();
      for (const e of (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters`,
          headers: bearer(t.account.accessToken),
        })
      ).json().exporters) {
        await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters/${e.id}`,
          headers: bearer(t.account.accessToken),
        });
      }
    }
  });

  it('test sends one span and answers with the collector response; failures are counted', async () => {
    const failing = await startOtlpReceiver(503);
    try {
      const exporter = await addExporter({ name: 'down', endpoint: failing.url, signals: ['traces'] });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters/${exporter.id}/test`,
        headers: bearer(t.account.accessToken),
      });
      // The collector's own words ('nope') never come back: its status class and a fixed reason.
      expect(res.json()).toMatchObject({ ok: false, statusCode: 503, message: 'HTTP 5xx: the destination failed' });
      expect(res.body).not.toContain('nope');
      expect(decodeSpans(failing.received[0].body)[0].name).toBe('toolscope test span');
      const counters = (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters/${exporter.id}/metrics`,
          headers: bearer(t.account.accessToken),
        })
      ).json();
      expect(counters).toMatchObject({ failedExports: 1, lastError: 'test: HTTP 5xx: the destination failed' });
      await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters/${exporter.id}`,
        headers: bearer(t.account.accessToken),
      });
    } finally {
      await failing.close();
    }
  });

  // Issue 37, item 3: OpenTelemetry's HTTP instrumentation puts the agent's context in the HTTP
  // header, not in _meta; it counts the same, and tracestate stays with the trace it belongs to.
  it('honours the agent’s traceparent HTTP header like _meta.traceparent: span, upstream header, tracestate, recorded call', async () => {
    const receiver = await startOtlpReceiver();
    const exporter = await addExporter({ name: 'header', endpoint: receiver.url, signals: ['traces'] });
    try {
      const { server, proxyUrl } = await t.register(upstream.url);
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const httpSpan = 'b7ad6b7169203331';
      const client = new Client({ name: 'http-instrumented-agent', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(proxyUrl, {
          requestInit: { headers: { traceparent: `00-${traceId}-${httpSpan}-01`, tracestate: 'vendor=agent' } },
        }),
      );
      await client.callTool({ name: 'echo', arguments: { text: 'traced by header' } });
      await client.close();

      const echo = await waitFor(() =>
        receiver.received
          .filter((r) => r.path === '/v1/traces')
          .flatMap((r) => decodeSpans(r.body))
          .find((span) => span.name === 'tools/call echo' && hex(span.traceId) === traceId),
      );
      expect(hex(echo.parentSpanId!)).toBe(httpSpan);
      // Upstream: Toolscope's span in the agent's trace, with the agent's tracestate beside it.
      const sent = upstream.requests.find((headers) => headers.traceparent === `00-${traceId}-${hex(echo.spanId)}-01`);
      expect(sent?.tracestate).toBe('vendor=agent');
      const rows = await t.database.db.query<{ traceparent: string | null }>(
        `select traceparent from tool_calls where server_id = $1`,
        [server.id],
      );
      expect(rows).toEqual([{ traceparent: `00-${traceId}-${httpSpan}-01` }]);

      // A tracestate without the agent's traceparent belongs to no trace the upstream sees: dropped
      // wherever Toolscope's own traceparent goes.
      const orphan = new Client({ name: 'tracestate-only-agent', version: '1.0.0' });
      await orphan.connect(
        new StreamableHTTPClientTransport(proxyUrl, { requestInit: { headers: { tracestate: 'vendor=orphan' } } }),
      );
      const before = upstream.requests.length;
      await orphan.callTool({ name: 'echo', arguments: { text: 'no trace of mine' } });
      await orphan.close();
      const orphanRequests = upstream.requests.slice(before);
      expect(orphanRequests.some((headers) => typeof headers.traceparent === 'string')).toBe(true);
      for (const headers of orphanRequests)
        if (typeof headers.traceparent === 'string') expect(headers.tracestate).toBeUndefined();
    } finally {
      await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters/${exporter.id}`,
        headers: bearer(t.account.accessToken),
      });
      await receiver.close();
    }
  });

  it('refuses bad exporters with a 400 naming the field, and stores none', async () => {
    const url = `/api/v1/workspaces/${t.account.workspaceId}/telemetry/exporters`;
    for (const [payload, message] of [
      [{ name: 'x', endpoint: 'ftp://collector' }, /endpoint/],
      [{ name: 'x', endpoint: 'http://169.254.169.254' }, /endpoint: .*metadata/i],
      [{ name: 'x', endpoint: 'http://user:pw@collector.example' }, /endpoint/],
      [{ name: 'x', endpoint: 'http://127.0.0.1:4318', headers: { 'Content-Type': 'x' } }, /headers/],
      [{ name: 'x', endpoint: 'http://127.0.0.1:4318', samplingRatio: 2 }, /samplingRatio/],
      [{ name: 'x', endpoint: 'http://127.0.0.1:4318', signals: [] }, /signals/],
      [{ name: 'x', endpoint: 'http://127.0.0.1:4318', protocol: 'grpc' }, /protocol/],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(t.account.accessToken), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(
      (await t.app.inject({ method: 'GET', url, headers: bearer(t.account.accessToken) })).json().exporters,
    ).toHaveLength(0);
  });
});
