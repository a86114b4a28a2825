import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcMessage } from './jsonRpc';

// MCP 2026-07-28 (SEP-2243) mirrors a request's method and name in the `Mcp-Method` and `Mcp-Name`
// headers so gateways and rate limiters can route without reading the body, and servers must
// refuse a request whose headers and body disagree (HTTP 400, -32020): otherwise what a gateway
// authorized or counted (the header) is not what runs (the body). The proxy is such a gateway.
// Headers an older client does not send are not required here: only a disagreement is refused.
export const HEADER_MISMATCH = -32020;

/** The param `Mcp-Name` mirrors, per method. */
const NAMED_BY: Partial<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'resources/subscribe': 'uri',
  'resources/unsubscribe': 'uri',
  // The 2026-07-28 tasks extension: "the client MUST set the Mcp-Name header to the value of params.taskId".
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** A header value as sent: plain, or `=?base64?…?=` for a value that is not plain ASCII. */
function headerText(value: string): string {
  const encoded = /^=\?base64\?(.*)\?=$/i.exec(value.trim());
  return encoded ? Buffer.from(encoded[1], 'base64').toString('utf8') : value.trim();
}

/** Why the headers disagree with the body's one request, or null when they agree (or are absent). */
export function headerMismatch(headers: IncomingHttpHeaders, message: JsonRpcMessage): string | null {
  const method = headers['mcp-method'];
  if (typeof method === 'string' && typeof message.method === 'string' && headerText(method) !== message.method)
    return `Mcp-Method is "${headerText(method)}" but the body's method is "${message.method}"`;
  const name = headers['mcp-name'];
  if (typeof name !== 'string' || typeof message.method !== 'string') return null;
  const param = NAMED_BY[message.method];
  const named = param ? message.params?.[param] : undefined;
  if (typeof named !== 'string') return `Mcp-Name is set but the body's ${message.method} names nothing`;
  if (headerText(name) !== named) return `Mcp-Name is "${headerText(name)}" but the body names "${named}"`;
  return null;
}
