import { randomUUID } from 'node:crypto';
import type { MessageDirection } from '../../contract/sessions';
import { storableJson, storableText } from '../db/storable';
import { idKey, type JsonRpcMessage } from '../proxy/jsonRpc';
import { boundedJson, estimateTokens, toolCallError } from './payload';
import type { QueuedToolCall, SessionState } from './rows';

// Pairing requests with their responses inside one session: what a request was (to recognise its
// answer), the tool call it opened, and what the answer settles. Everything taken from the wire
// for a text/jsonb column goes through storableText/storableJson: one NUL in an agent's tool name
// or an upstream's error would otherwise fail the whole multi-row insert and lose every other
// call of that batch.

export interface PendingRequest {
  method: string;
  startedMs: number;
  call?: QueuedToolCall;
}

/** What pairing needs of a session. */
export interface PairingSession {
  readonly row: SessionState;
  pending: Map<string, PendingRequest>;
}

const MAX_PENDING_PER_SESSION = 10_000;

type IdMessage = JsonRpcMessage & { id: string | number };

/** Remembers a request so its response can be paired; a tools/call opens a call row. */
export function trackRequest(session: PairingSession, direction: MessageDirection, message: IdMessage, sizeBytes: number, nowMs: number, at: string, payloadLimit: number): void {
  const method = message.method as string;
  if (session.pending.size >= MAX_PENDING_PER_SESSION) session.pending.delete(session.pending.keys().next().value as string);
  const pending: PendingRequest = { method, startedMs: nowMs };
  const params = message.params ?? {};
  if (method === 'initialize' && direction === 'client_to_server') {
    const clientInfo = params.clientInfo as { name?: unknown; version?: unknown } | undefined;
    if (typeof clientInfo?.name === 'string') session.row.client_name = storableText(clientInfo.name);
    if (typeof clientInfo?.version === 'string') session.row.client_version = storableText(clientInfo.version);
    if (typeof params.protocolVersion === 'string') session.row.protocol_version = storableText(params.protocolVersion);
  }
  if (method === 'tools/call' && direction === 'client_to_server') {
    const meta = params._meta && typeof params._meta === 'object' ? storableJson(params._meta as Record<string, unknown>) : null;
    session.row.call_count++;
    pending.call = {
      id: randomUUID(),
      workspace_id: session.row.workspace_id,
      server_id: session.row.server_id,
      server_name: session.row.server_name,
      session_id: session.row.id,
      jsonrpc_id: storableText(String(message.id)),
      tool_name: typeof params.name === 'string' ? storableText(params.name) : '(unnamed)',
      arguments: boundedJson(params.arguments ?? null, payloadLimit),
      result: null,
      error_message: null,
      status: 'pending',
      started_at: at,
      ended_at: null,
      duration_ms: null,
      request_bytes: sizeBytes,
      response_bytes: 0,
      tokens_estimate: 0,
      meta,
      traceparent: typeof meta?.traceparent === 'string' ? meta.traceparent : null,
    };
  }
  session.pending.set(`${direction}:${idKey(message.id)}`, pending);
}

/** Pairs a response with its request; returns the tool call it completes, if any. */
export function settleResponse(session: PairingSession, direction: MessageDirection, message: IdMessage, sizeBytes: number, nowMs: number, at: string, payloadLimit: number): QueuedToolCall | undefined {
  const requestDirection = direction === 'server_to_client' ? 'client_to_server' : 'server_to_client';
  const key = `${requestDirection}:${idKey(message.id)}`;
  const pending = session.pending.get(key);
  if (!pending) return undefined;
  session.pending.delete(key);
  if (pending.method === 'initialize' && message.result) {
    const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
    if (typeof version === 'string') session.row.protocol_version = storableText(version);
  }
  const call = pending.call;
  if (!call) return undefined;
  const error = toolCallError(message);
  if (error !== null && !message.error) session.row.error_count++;
  call.status = error === null ? 'ok' : 'error';
  call.error_message = error === null ? null : storableText(error);
  call.result = message.error ? { error: storableJson(message.error) } : boundedJson(message.result ?? null, payloadLimit);
  call.ended_at = at;
  call.duration_ms = Math.max(0, Math.round(nowMs - pending.startedMs));
  call.response_bytes = sizeBytes;
  call.tokens_estimate = estimateTokens(call.request_bytes + sizeBytes);
  return call;
}

/** A session ends: its unanswered calls become errors. Returns them. */
export function settleUnanswered(session: PairingSession, at: string): QueuedToolCall[] {
  const calls: QueuedToolCall[] = [];
  for (const pending of session.pending.values()) {
    if (!pending.call) continue;
    pending.call.status = 'error';
    pending.call.error_message = 'No response before the session ended';
    pending.call.ended_at = at;
    pending.call.tokens_estimate = estimateTokens(pending.call.request_bytes);
    session.row.error_count++;
    calls.push(pending.call);
  }
  session.pending.clear();
  return calls;
}
