import { createHash } from 'node:crypto';
import type { ProxyRequest } from './exchangeIo';
import type { IncomingHttpHeaders } from 'node:http';

// Which headers cross the proxy. Requests: only what MCP needs, never the agent's own
// credentials (Authorization, cookies, API keys) — the upstream gets the server's stored
// credentials instead. Responses: only what the agent's MCP client reads.
const REQUEST_HEADERS = [
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'traceparent',
  'tracestate',
  'user-agent',
];
const RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'cache-control', 'mcp-protocol-version', 'retry-after'];

/**
 * `sessionId`: the mcp-session-id to send instead of the agent's (the upstream's own, from a sealed
 * one): set here rather than on a copy of the agent's headers, which was one more object per call.
 */
export function upstreamRequestHeaders(
  incoming: IncomingHttpHeaders,
  stored: Record<string, string>,
  sessionId?: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of REQUEST_HEADERS) {
    const value = name === 'mcp-session-id' && sessionId !== undefined ? sessionId : incoming[name];
    if (typeof value === 'string') out[name] = value;
  }
  for (const name in stored) out[name.toLowerCase()] = stored[name];
  return out;
}

/**
 * `bodyUnchanged`: the body goes on byte for byte, so the upstream's declared length goes with it.
 * The agent's response then ends with its last byte; without a length it is chunked, and its
 * terminating chunk is one more write (one more packet the agent waits for) after the upstream's end.
 */
export function agentResponseHeaders(
  upstream: Record<string, string | string[] | undefined>,
  bodyUnchanged = false,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RESPONSE_HEADERS) {
    const value = upstream[name];
    if (typeof value === 'string') out[name] = value;
  }
  const length = upstream['content-length'];
  if (bodyUnchanged && typeof length === 'string' && /^\d+$/.test(length)) out['content-length'] = length;
  return out;
}

/** The agent's `traceparent` HTTP header (OpenTelemetry's HTTP instrumentation sends it), if one. */
export function agentTraceparentHeader(request: ProxyRequest): string | undefined {
  const header = request.headers.traceparent;
  return typeof header === 'string' ? header : undefined;
}

/**
 * A stable, non-reversible name for the agent behind a request (for session inference): its
 * credential when it sends one, else its address and user agent. The credential itself is never kept.
 */
export function agentFingerprint(request: ProxyRequest): string {
  const h = request.headers;
  const credential = h.authorization ?? h['x-toolscope-key'] ?? h['x-api-key'] ?? h.cookie;
  const basis = typeof credential === 'string' ? `cred:${credential}` : `addr:${request.ip}|${h['user-agent'] ?? ''}`;
  return createHash('sha256').update(basis).digest('base64url').slice(0, 22);
}
