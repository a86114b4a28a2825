import crypto from 'node:crypto';

// The proxy's own span of an MCP request, known at two moments: when the proxy forwards the
// request (it sends `traceparent: 00-{trace}-{its span}-{flags}` upstream, so the tool server's
// spans become children of Toolscope's) and when the exporter builds the span from what the
// recorder stored. Both compute it from the same facts, so no id travels through the recorder:
// the server, the MCP session id, the JSON-RPC id and the agent's traceparent from `_meta`.
// The trace is the agent's when it sent one; otherwise one trace per MCP session. Without either
// (a stateless request with no trace of its own), there is nothing stable to derive it from: the
// agent's header goes upstream unchanged and the exported span gets ids of its own.

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface ProxySpanContext {
  traceId: string;
  spanId: string;
  /** The agent's span when it sent a traceparent: the proxy's span is its child. */
  parentSpanId: string | null;
  sampled: boolean;
}

function parse(traceparent: string | null | undefined): { traceId: string; spanId: string; sampled: boolean } | null {
  const match = traceparent ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]) || /^0+$/.test(match[3])) return null;
  return { traceId: match[2], spanId: match[3], sampled: (Number.parseInt(match[4], 16) & 1) === 1 };
}

// Per proxied call, twice: the one-shot hash (Node ≥ 20.12) skips the Hash object createHash builds.
const digest: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * A session's trace id, kept by its server and session: every call of a session has the same one,
 * and hashing it anew cost each proxied call a SHA-256 and a 64-character string (issue 39). A
 * small map, cleared whole when full: a miss only costs the hash again.
 */
const sessionTraces = new Map<string, string>();
const MAX_SESSION_TRACES = 4096;

function sessionTraceId(serverId: string, mcpSessionId: string): string {
  const key = `trace\u0000${serverId}\u0000${mcpSessionId}`;
  let traceId = sessionTraces.get(key);
  if (traceId === undefined) {
    traceId = digest(key).slice(0, 32);
    if (sessionTraces.size >= MAX_SESSION_TRACES) sessionTraces.clear();
    sessionTraces.set(key, traceId);
  }
  return traceId;
}

export function proxySpanContext(
  serverId: string,
  mcpSessionId: string | null,
  jsonrpcId: string | null,
  agentTraceparent: string | null | undefined,
): ProxySpanContext | undefined {
  if (jsonrpcId === null) return undefined;
  const parent = parse(agentTraceparent);
  if (!parent && !mcpSessionId) return undefined;
  // mcpSessionId is set whenever parent is not (checked above).
  const traceId = parent?.traceId ?? sessionTraceId(serverId, mcpSessionId as string);
  const spanId = digest(
    `span\u0000${serverId}\u0000${mcpSessionId ?? ''}\u0000${parent?.spanId ?? ''}\u0000${jsonrpcId}`,
  ).slice(0, 16);
  return { traceId, spanId, parentSpanId: parent?.spanId ?? null, sampled: parent?.sampled ?? true };
}

/** The W3C header the proxy sends upstream for its span. */
export function traceparentOf(context: ProxySpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

/** `_meta.traceparent` of a request, where MCP carries the agent's trace context. */
export function metaTraceparent(params: unknown): string | null {
  const meta = params && typeof params === 'object' ? (params as { _meta?: unknown })._meta : undefined;
  const value = meta && typeof meta === 'object' ? (meta as { traceparent?: unknown }).traceparent : undefined;
  return typeof value === 'string' ? value : null;
}
