import type { MessageKind } from '../../contract/sessions';

// Just enough JSON-RPC 2.0 to tap traffic: what a message is, its id and method. Anything that
// is not a JSON-RPC message (a stray body, a parse error) is passed through and not recorded.
export type JsonRpcId = string | number;

export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: JsonRpcId | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  /** From the wire: `null` is sent by JSON-RPC 1.0 style servers, and a message may be anything. */
  error?: { code?: number; message?: unknown; data?: unknown } | null;
}

export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    ((value as JsonRpcMessage).jsonrpc === '2.0' || 'method' in value || 'result' in value || 'error' in value)
  );
}

export function messageKind(message: JsonRpcMessage): MessageKind {
  if (typeof message.method === 'string')
    return message.id === undefined || message.id === null ? 'notification' : 'request';
  // `"error": null` is a success (JSON-RPC 1.0 style servers send it beside their result).
  return message.error !== undefined && message.error !== null ? 'error' : 'response';
}

export function hasId(message: JsonRpcMessage): message is JsonRpcMessage & { id: JsonRpcId } {
  return typeof message.id === 'string' || typeof message.id === 'number';
}

/** Ids as text, typed so 1 and "1" stay different requests. */
export function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** The messages of a body (a single message or a 2025-03-26 batch). */
export function parseMessages(text: string): JsonRpcMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  return list.filter(isJsonRpcMessage);
}

export function requestsIn(messages: JsonRpcMessage[]): (JsonRpcMessage & { id: JsonRpcId })[] {
  return messages.filter((m): m is JsonRpcMessage & { id: JsonRpcId } => typeof m.method === 'string' && hasId(m));
}
