import type { JsonRpcMessage } from './jsonRpc';

// A POST body is checked item by item before anything is forwarded. An upstream that runs the
// valid items of a batch (as JSON-RPC 2.0 asks) would otherwise execute calls the proxy could not
// pair or record: `[{"id":"p","method":42}, {tools/call}]` ran the call and left no trace. Invalid
// items are answered by the proxy (−32600, as JSON-RPC 2.0 §5.1 says), only the valid ones travel,
// and the two sets of answers are merged into one batch on the way back.

export const JsonRpcErrorCode = { parseError: -32700, invalidRequest: -32600 } as const;

export interface ValidatedBody {
  /** The body held a JSON array (a 2025-03-26 batch). */
  isBatch: boolean;
  /** Items that go to the upstream (and are recorded). */
  valid: JsonRpcMessage[];
  /** The proxy's own answers to items it refused; never forwarded. */
  rejected: JsonRpcMessage[];
  /** What to send upstream: the exact bytes when every item is valid; null when nothing is left. */
  forward: Buffer | null;
  /** `forward` as text when it is the body as received (decoded once, for the recorder); else ''. */
  text: string;
}

const isId = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Why an item is not a JSON-RPC 2.0 request, notification or response; null when it is one. */
export function invalidItemReason(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'a message must be a JSON object';
  const message = item as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in message) {
    if (typeof message.method !== 'string' || message.method === '') return 'method must be a non-empty string';
    if ('id' in message && !isId(message.id)) return 'id must be a string or a number';
    // MCP sends only notifications/… without an id. A `tools/call` without one would be forwarded
    // as a notification — uncounted by the quota, unpaired by the recorder — and a non-conforming
    // upstream runs it anyway; so any other method without an id is refused and never forwarded.
    if (!('id' in message) && !message.method.startsWith('notifications/'))
      return 'a request needs an id (only notifications/… methods are sent without one)';
    if ('params' in message && (typeof message.params !== 'object' || message.params === null))
      return 'params must be an object or an array';
    if ('result' in message || 'error' in message) return 'a request carries no result or error';
    return null;
  }
  const hasResult = 'result' in message;
  const hasError = 'error' in message && message.error !== null;
  if (hasResult === hasError) return 'a message needs a method, a result or an error';
  if (hasError) {
    const error = message.error as Record<string, unknown> | null;
    if (
      typeof error !== 'object' ||
      error === null ||
      !Number.isInteger(error.code) ||
      typeof error.message !== 'string'
    )
      return 'error must have an integer code and a message';
    if (!isId(message.id) && message.id !== null) return 'id must be a string, a number or null';
    return null;
  }
  if (!isId(message.id)) return 'id must be a string or a number';
  return null;
}

export function invalidRequest(item: unknown, reason: string): JsonRpcMessage {
  const id =
    typeof item === 'object' && item !== null && isId((item as { id?: unknown }).id)
      ? (item as { id: string | number }).id
      : null;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: JsonRpcErrorCode.invalidRequest, message: 'Invalid Request', data: { source: 'toolscope', reason } },
  };
}

export function validateBody(body: Buffer): ValidatedBody {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const answer: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: JsonRpcErrorCode.parseError,
        message: 'Parse error',
        data: { source: 'toolscope', reason: 'the body is not JSON' },
      },
    };
    return { isBatch: false, valid: [], rejected: [answer], forward: null, text: '' };
  }
  const isBatch = Array.isArray(value);
  if (isBatch && (value as unknown[]).length === 0)
    return { isBatch: false, valid: [], rejected: [invalidRequest(value, 'an empty batch')], forward: null, text: '' };
  const items = isBatch ? (value as unknown[]) : [value];
  const valid: JsonRpcMessage[] = [];
  const rejected: JsonRpcMessage[] = [];
  for (const item of items) {
    const reason = invalidItemReason(item);
    if (reason === null) valid.push(item as JsonRpcMessage);
    else rejected.push(invalidRequest(item, reason));
  }
  let forward: Buffer | null = null;
  if (rejected.length === 0) forward = body;
  else if (valid.length > 0) forward = Buffer.from(JSON.stringify(valid));
  return { isBatch, valid, rejected, forward, text: forward === body ? text : '' };
}
