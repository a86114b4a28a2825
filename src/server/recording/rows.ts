import type { SessionRow, ToolCallRow } from '../data/sessions/mappers';

// What the recorder queues: rows shaped as the tables hold them, written in batches.
export interface SessionState extends SessionRow {
  server_name: string | null;
  client_key: string | null;
  trace_id: string | null;
  platform_key_id: string | null;
  started_at: string;
  last_activity_at: string;
  ended_at: string | null;
  message_count: number;
  call_count: number;
  error_count: number;
  /** Token sums of the session (o200k_base, tokenCounter.ts), added in the recorder's batch work. */
  argument_tokens: number;
  result_tokens: number;
  definition_tokens: number;
  /**
   * The recorder whose part of the session's counts this row holds (migration 024): set by the
   * write queue that writes it, and journaled with it, so a replay writes the same part again.
   */
  recorder_id?: string;
}

/** What the write queue needs of a session: its row and whether its start/end were announced. */
export interface QueuedSession {
  readonly row: SessionState;
  announced: boolean;
  endAnnounced: boolean;
  /** Started by another instance (its start is counted there). */
  adopted?: boolean;
  /** Any instance may record it (its messages are numbered by the session's clock; its counts are this recorder's part). */
  shared?: boolean;
}

export interface QueuedMessage {
  workspace_id: string;
  session_id: string;
  seq: number;
  direction: string;
  kind: string;
  method: string | null;
  jsonrpc_id: string | null;
  /** JSON text of the payload (already cut to the limit when truncated). */
  payload: string;
  size_bytes: number;
  truncated: boolean;
  created_at: string;
  /** On the last notification of a coalesced progress stream: how many the stream had. */
  progress_count?: number | null;
}

/**
 * A tool call as its row holds it: the exact request and response text with their place in the
 * session (migration 007). `arguments`/`result` are the same values in memory, for the live stream;
 * they are not written (the API reads them from the text).
 */
export interface QueuedToolCall extends ToolCallRow {
  workspace_id: string;
  /** Null: the request is a message row of its own (a retry another instance's call joined: inputRounds.ts). */
  request_seq: number | null;
  request_payload: string;
  request_truncated: boolean;
  response_seq: number | null;
  response_kind: string | null;
  response_payload: string | null;
  response_truncated: boolean;
  started_at: string;
  ended_at: string | null;
  duration_ms: number | null;
  request_bytes: number;
  response_bytes: number;
  tokens_estimate: number;
  /** Token counts and failure class, set in the batch work that writes the settled call (trafficRollup.ts). */
  argument_tokens?: number | null;
  result_tokens?: number | null;
  error_class?: string | null;
  /**
   * The platform key the agent presented (docs/access.md), from its session: stored on the call's
   * row and its rollup rows, so analytics attributes the call to the key.
   */
  platform_key_id: string | null;
  /**
   * Set as a write takes the call (on the settled row itself, on a pending one's copy: rowQueue.ts):
   * the call was taken into an earlier write while pending, so its row may exist
   * and this write updates it. Every other call is new to the database (a batch written again after
   * an unknown outcome is guarded: batchGuard.ts), and a plain insert costs less than an upsert.
   */
  writtenBefore?: boolean;
  /**
   * While the call waits for the client's retry with input (2026-07-28 `input_required`): the key of
   * the `requestState` the retry will echo, by which any instance finds the call (inputRounds.ts).
   */
  input_state?: string | null;
  /** A task's call: when its task expires (its ttl from its creation), for a sweep of tasks no instance holds. */
  task_expires_at?: string | null;
  /**
   * A retry recorded as a call of its own because no stored call waited for the state it echoed
   * (yet): that state's key, by which the waiting call, once stored, joins it (storedInputRounds.ts).
   */
  retry_state?: string | null;
}

export interface UsageIncrement {
  workspace_id: string;
  server_id: string;
  tool_name: string;
  bucket: string;
  calls: number;
  errors: number;
  duration_sum_ms: number;
  duration_max_ms: number;
  duration_hist: number[];
  tokens: number;
}
