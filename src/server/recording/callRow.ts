import { randomUUID } from 'node:crypto';
import { storableJson, storableText } from '../db/storable';
import type { JsonRpcMessage } from '../proxy/jsonRpc';
import { storedValue } from './payload';
import type { QueuedToolCall, SessionState } from './rows';
import type { SeenMessage } from './callSettling';

/** The tool a tools/call names, as stored. */
export function calledTool(params: Record<string, unknown>): string {
  return typeof params.name === 'string' ? storableText(params.name) : '(unnamed)';
}

/**
 * The row a tools/call request opens (pending), in its session as seen. Not counted here: the
 * caller counts it in its session once it is a call of that session.
 */
export function newCallRow(
  row: SessionState,
  message: JsonRpcMessage & { id: string | number },
  params: Record<string, unknown>,
  seen: SeenMessage,
): QueuedToolCall {
  const meta =
    params._meta && typeof params._meta === 'object' ? storableJson(params._meta as Record<string, unknown>) : null;
  return {
    id: randomUUID(),
    workspace_id: row.workspace_id,
    server_id: row.server_id,
    server_name: row.server_name,
    session_id: row.id,
    platform_key_id: row.platform_key_id,
    jsonrpc_id: storableText(String(message.id)),
    tool_name: calledTool(params),
    arguments: storedValue(seen.payload, params.arguments),
    result: null,
    error_message: null,
    status: 'pending',
    started_at: seen.at,
    ended_at: null,
    duration_ms: null,
    request_bytes: seen.sizeBytes,
    response_bytes: 0,
    tokens_estimate: 0,
    meta,
    // `_meta.traceparent` first (MCP's own place for it), else the HTTP header: the same choice
    // as the span the proxy sends upstream (sessionResolution.ts, agentTraceparent).
    traceparent: typeof meta?.traceparent === 'string' ? meta.traceparent : (seen.httpTraceparent ?? null),
    request_seq: seen.seq,
    request_payload: seen.payload.text,
    request_truncated: seen.payload.truncated,
    response_seq: null,
    response_kind: null,
    response_payload: null,
    response_truncated: false,
  };
}
