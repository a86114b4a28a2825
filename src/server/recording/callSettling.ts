import { storableText } from '../db/storable';
import type { JsonRpcMessage } from '../proxy/jsonRpc';
import { estimateTokens, storedValue, toolCallError, type StoredPayload } from './payload';
import type { QueuedToolCall, SessionState } from './rows';

// How a call's row ends: with the answer that ends it, or with none (no answer came, or none can
// be paired any more). Used by pairing (callPairing.ts) and by the calls of tasks (taskCalls.ts),
// whose end may come in another session than the call's.

/** A message where it sits in its session, as it is stored. */
export interface SeenMessage {
  seq: number;
  kind: string;
  payload: StoredPayload;
  sizeBytes: number;
  nowMs: number;
  at: string;
  /** The W3C `traceparent` HTTP header the message came with (an agent's HTTP instrumentation sends it). */
  httpTraceparent?: string;
}

/** The session whose counts count the call. */
interface CountingSession {
  readonly row: SessionState;
}

/**
 * Settles `call` with the answer that ends it: its outcome (an error counted in `countIn`, the
 * session of the call), its result and the answer's text. `endedMs`: when the call ended, if
 * before this answer (a task seen terminal before its result was asked for). `inReplay` false:
 * the answer is a message of another session, so the call holds its text but no place of its own.
 */
export function settleWithAnswer(
  countIn: CountingSession,
  call: QueuedToolCall,
  stored: JsonRpcMessage,
  seen: SeenMessage,
  startedMs: number,
  endedMs = seen.nowMs,
  inReplay = true,
): void {
  const error = toolCallError(stored);
  // The session's error count is its failed calls (docs/sessions.md "Definitions"), whatever the form of the failure.
  if (error !== null) countIn.row.error_count++;
  call.status = error === null ? 'ok' : 'error';
  call.error_message = error === null ? null : storableText(error);
  // As storedCallSql.ts reads it back: a cut text reads as its preview, an error as { error }, else the result.
  call.result =
    seen.kind === 'error' && !seen.payload.truncated
      ? { error: stored.error }
      : storedValue(seen.payload, stored.result);
  call.response_seq = inReplay ? seen.seq : null;
  call.response_kind = seen.kind;
  call.response_payload = seen.payload.text;
  call.response_truncated = seen.payload.truncated;
  call.ended_at = new Date(endedMs).toISOString();
  call.duration_ms = Math.max(0, Math.round(endedMs - startedMs));
  call.response_bytes = seen.sizeBytes;
  call.tokens_estimate = estimateTokens(call.request_bytes + seen.sizeBytes);
}

/** Settles a call that will get no (pairable) answer. */
export function abandonCall(
  session: CountingSession,
  call: QueuedToolCall,
  at: string,
  reason: string,
  status: 'error' | 'timeout',
): QueuedToolCall {
  call.status = status;
  call.error_message = reason;
  call.ended_at = at;
  call.duration_ms = Math.max(0, Date.parse(at) - Date.parse(call.started_at));
  call.tokens_estimate = estimateTokens(call.request_bytes);
  session.row.error_count++;
  return call;
}
