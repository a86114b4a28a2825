import type { ProxyRequest } from './exchangeIo';
import type { RecordedSession } from '../recording/recorder';
import { metaTraceparent, proxySpanContext, traceparentOf } from '../telemetry/proxySpanContext';
import type { ProxyContext } from './context';
import { agentFingerprint } from './headers';
import type { JsonRpcId, JsonRpcMessage } from './jsonRpc';
import { originOf } from './proxyTarget';
import type { SessionClaims } from './sessionSeal';
import type { UpstreamTarget } from './upstreamDirectory';

// Which recorded session a Streamable HTTP exchange belongs to, who the agent says it is, and the
// trace context the upstream gets.

/** clientInfo and trace id carried in params._meta (2026-07-28) or by initialize (earlier versions). */
function clientIdentity(messages: JsonRpcMessage[], request: ProxyRequest) {
  let clientName: string | null = null;
  let clientVersion: string | null = null;
  let traceId: string | null = null;
  let protocolVersion =
    typeof request.headers['mcp-protocol-version'] === 'string' ? request.headers['mcp-protocol-version'] : null;
  const header = request.headers.traceparent;
  let traceparent = typeof header === 'string' ? header : null;
  for (const message of messages) {
    const params = message.params ?? {};
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const info =
      (message.method === 'initialize' ? params.clientInfo : undefined) ??
      meta.clientInfo ??
      meta['io.modelcontextprotocol/clientInfo'];
    if (info && typeof info === 'object') {
      const { name, version } = info as { name?: unknown; version?: unknown };
      if (typeof name === 'string') clientName = name;
      if (typeof version === 'string') clientVersion = version;
    }
    if (typeof meta.traceparent === 'string') traceparent = meta.traceparent;
    if (message.method === 'initialize' && typeof params.protocolVersion === 'string')
      protocolVersion = params.protocolVersion;
  }
  const traceMatch = traceparent ? /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/i.exec(traceparent) : null;
  if (traceMatch) traceId = traceMatch[1].toLowerCase();
  return { clientName, clientVersion, traceId, protocolVersion };
}

/**
 * The upstream gets Toolscope's own span as its parent (`traceparent`), the span the exporter
 * sends for this request (telemetry/proxySpanContext.ts): a child of the agent's span from
 * `params._meta.traceparent`, else from the agent's `traceparent` HTTP header (what OpenTelemetry's
 * HTTP instrumentation sends). Without a stable one, the agent's headers go on unchanged.
 * `tracestate` belongs to its trace: it goes on only when the upstream's traceparent is in the
 * same trace as the header it came with (W3C Trace Context: a participant keeps the state of its trace).
 */
export function forwardOwnSpan(
  headers: Partial<Record<string, string>>,
  serverId: string,
  request: JsonRpcMessage & { id: JsonRpcId },
  mcpSessionId: string | null = headers['mcp-session-id'] ?? null,
): void {
  const agentHeader = headers.traceparent;
  const span = proxySpanContext(
    serverId,
    mcpSessionId,
    String(request.id),
    metaTraceparent(request.params) ?? agentHeader,
  );
  if (!span) return;
  headers.traceparent = traceparentOf(span);
  if (headers.tracestate !== undefined && traceIdOf(agentHeader) !== span.traceId) delete headers.tracestate;
}

function traceIdOf(traceparent: string | undefined): string | null {
  const match = traceparent ? /^[0-9a-f]{2}-([0-9a-f]{32})-/i.exec(traceparent.trim()) : null;
  return match ? match[1].toLowerCase() : null;
}

/**
 * The recorded session of an exchange. `sent`: the upstream's session id the agent's request
 * carried (unsealed); `claims`: what its sealed id says — a session another instance started is
 * adopted under its own row, so one MCP session is one recorded session whichever instance serves it.
 */
export function resolveSession(
  ctx: ProxyContext,
  target: UpstreamTarget,
  request: ProxyRequest,
  messages: JsonRpcMessage[],
  responseSessionId: string | undefined,
  sent: string | undefined,
  claims: SessionClaims | null,
): RecordedSession | null {
  if (!ctx.recorder.isEnabled()) return null;
  const mcpSessionId = sent ?? responseSessionId;
  if (!mcpSessionId && messages.length === 0) return null;
  if (mcpSessionId) {
    const known = ctx.recorder.sessionByMcpId(target.serverId, mcpSessionId);
    if (known) return known;
    const start = {
      transport: 'streamable-http' as const,
      mcpSessionId,
      platformKeyId: request.platformKeyId,
      ...clientIdentity(messages, request),
    };
    if (claims?.recordedSessionId)
      return ctx.recorder.adoptSession(originOf(target), claims.recordedSessionId, claims.startedAtMs, start);
    const session = ctx.recorder.startSession(originOf(target), start);
    ctx.recorder.shareAcrossInstances(session);
    return session;
  }
  return ctx.recorder.inferSession(originOf(target), {
    transport: 'streamable-http',
    clientKey: agentFingerprint(request),
    platformKeyId: request.platformKeyId,
    ...clientIdentity(messages, request),
  });
}
