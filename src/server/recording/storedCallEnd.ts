import { isFailedCall, type ToolCallStatus } from '../../contract/sessions';
import type { QueuedToolCall } from './rows';
import type { WriteQueue } from './writeQueue';

// A call this instance holds open while another instance may end its row first — a task another
// instance heard the end of (storedTaskSettle.ts), a call waiting for a retry another instance
// received (storedInputRounds.ts). When the holder ends it without an answer of its own (a
// timeout, a task's end nobody asked the result of), it ends the row only if it still waits
// there, in one statement that also counts a failure in the call's session; and it adds the call
// to the minute rollups only when that statement ended it. Whoever ends the row counts it: the
// rollups, the session's errors and the row agree (issue 37). A row not stored yet (its pending
// write still queued) can have been ended by no one else: the holder ends it as any call.

/** Runs the recorder's statements about stored calls, off the hot path (StoredTaskSettles.run). */
export interface StatementRunner {
  run<T>(sql: string, params: unknown[]): Promise<T[]>;
}

const END_HELD = `with settled as (
    update tool_calls set status = $3, error_message = $4, ended_at = $5::timestamptz, duration_ms = $6::int,
      tokens_estimate = $7::int, task_status = coalesce($8, task_status), input_state = null
    where id = $1 and started_at = $2 and status = 'pending' returning session_id),
  counted as (update sessions s set error_count = s.error_count + 1 from settled where s.id = settled.session_id and $9::bool)
  select (select count(*) from settled)::int as ended,
    exists (select 1 from tool_calls where id = $1 and started_at = $2) as stored`;

/**
 * Ends a held call's row as `ended` (the call's outcome, set on a copy: the call itself may still
 * be queued, pending, and its write must not end the row first) if the row still waits;
 * `notStored`: the row is not in the database yet (or the statement failed), end it here.
 */
export function endHeldCall(
  stored: StatementRunner,
  queue: WriteQueue,
  ended: QueuedToolCall,
  clientName: string | null,
  notStored: () => void,
): void {
  const params = [
    ended.id,
    ended.started_at,
    ended.status,
    ended.error_message,
    ended.ended_at,
    ended.duration_ms,
    ended.tokens_estimate,
    ended.task_status ?? null,
    isFailedCall(ended.status as ToolCallStatus),
  ];
  void stored.run<{ ended: number; stored: boolean }>(END_HELD, params).then((rows) => {
    const outcome = rows.at(0);
    if (outcome?.ended) queue.countStoredSettle(ended, clientName);
    else if (!outcome?.stored) notStored();
  });
}

/** What a statement that ended a stored call returns of it, for the rollups (see storedCallForRollups). */
export interface EndedCallRow {
  id: string;
  workspace_id: string;
  server_id: string;
  session_id: string;
  platform_key_id: string | null;
  jsonrpc_id: string | null;
  tool_name: string;
  arguments: unknown;
  status: string;
  error_message: string | null;
  started_at: unknown;
  ended_at: unknown;
  duration_ms: number;
  request_bytes: number;
  response_bytes: number;
  tokens_estimate: number;
  client_name: string | null;
}

/** The columns an ending statement returns as EndedCallRow (`tc`: the updated row; `arguments` as the API reads them). */
export const ENDED_CALL_RETURNING = `tc.id, tc.workspace_id, tc.server_id, tc.session_id, tc.platform_key_id, tc.jsonrpc_id,
  tc.tool_name, tc.status, tc.error_message, tc.started_at, tc.ended_at, tc.duration_ms, tc.request_bytes,
  tc.response_bytes, tc.tokens_estimate,
  coalesce(tc.arguments, case when tc.request_truncated then jsonb_build_object('truncated', true, 'preview', tc.request_payload)
    else tc.request_payload::jsonb #> '{params,arguments}' end) as arguments`;

/** A stored time as ISO text (the drivers give Date objects or text). */
export const isoTime = (time: unknown) => (time instanceof Date ? time : new Date(String(time))).toISOString();

/** A call ended by a statement, as the rollups count it: `answer` is its answer as this instance had it. */
export function storedCallForRollups(
  row: EndedCallRow,
  answer: { result: unknown; kind: string | null },
): QueuedToolCall {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    server_id: row.server_id,
    server_name: null,
    session_id: row.session_id,
    platform_key_id: row.platform_key_id,
    jsonrpc_id: row.jsonrpc_id,
    tool_name: row.tool_name,
    arguments: row.arguments,
    result: answer.result,
    error_message: row.error_message,
    status: row.status,
    started_at: isoTime(row.started_at),
    ended_at: isoTime(row.ended_at),
    duration_ms: row.duration_ms,
    request_bytes: row.request_bytes,
    response_bytes: row.response_bytes,
    tokens_estimate: row.tokens_estimate,
    meta: null,
    traceparent: null,
    request_seq: null,
    request_payload: '',
    request_truncated: false,
    response_seq: null,
    response_kind: answer.kind,
    response_payload: null,
    response_truncated: false,
  };
}
