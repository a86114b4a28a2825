import type { ElementType } from '../db/binaryArrays';
import type { QueuedToolCall } from './rows';

// The columns each table of a recorder batch is written with (batchWriter.ts), in its insert's
// order, with the types the statement reads them as.

/** A table's columns, in its insert's order, with the types json_to_recordset reads them as. */
export type Columns = readonly (readonly [name: string, type: string])[];

export const SESSION_COLUMNS: Columns = [
  ['id', 'uuid'],
  ['workspace_id', 'uuid'],
  ['server_id', 'uuid'],
  ['mcp_session_id', 'text'],
  ['transport', 'text'],
  ['protocol_version', 'text'],
  ['client_name', 'text'],
  ['client_version', 'text'],
  ['client_key', 'text'],
  ['trace_id', 'text'],
  ['platform_key_id', 'uuid'],
  ['status', 'text'],
  ['started_at', 'timestamptz'],
  ['last_activity_at', 'timestamptz'],
  ['ended_at', 'timestamptz'],
  ['message_count', 'int'],
  ['call_count', 'int'],
  ['error_count', 'int'],
  ['argument_tokens', 'bigint'],
  ['result_tokens', 'bigint'],
  ['definition_tokens', 'bigint'],
];

export const MESSAGE_COLUMNS: Columns = [
  ['workspace_id', 'uuid'],
  ['session_id', 'uuid'],
  ['seq', 'int'],
  ['direction', 'text'],
  ['kind', 'text'],
  ['method', 'text'],
  ['jsonrpc_id', 'text'],
  ['payload', 'text'],
  ['size_bytes', 'int'],
  ['truncated', 'bool'],
  ['created_at', 'timestamptz'],
  ['progress_count', 'int'],
];

// The request and response texts are written as they crossed the proxy, once (migration 007).
export const TOOL_CALL_COLUMNS: readonly (readonly [name: keyof QueuedToolCall, type: ElementType])[] = [
  ['id', 'uuid'],
  ['workspace_id', 'uuid'],
  ['server_id', 'uuid'],
  ['session_id', 'uuid'],
  ['jsonrpc_id', 'text'],
  ['tool_name', 'text'],
  ['error_message', 'text'],
  ['status', 'text'],
  ['started_at', 'timestamptz'],
  ['ended_at', 'timestamptz'],
  ['duration_ms', 'int4'],
  ['request_bytes', 'int4'],
  ['response_bytes', 'int4'],
  ['tokens_estimate', 'int4'],
  ['meta', 'jsonb'],
  ['traceparent', 'text'],
  ['request_seq', 'int4'],
  ['request_payload', 'text'],
  ['request_truncated', 'bool'],
  ['response_seq', 'int4'],
  ['response_kind', 'text'],
  ['response_payload', 'text'],
  ['response_truncated', 'bool'],
  ['argument_tokens', 'int4'],
  ['result_tokens', 'int4'],
  ['error_class', 'text'],
  ['platform_key_id', 'uuid'],
  ['task_id', 'text'],
  ['task_status', 'text'],
  ['input_state', 'text'],
  ['task_expires_at', 'timestamptz'],
  ['retry_state', 'text'],
];

export const USAGE_COLUMNS: Columns = [
  ['workspace_id', 'uuid'],
  ['server_id', 'uuid'],
  ['tool_name', 'text'],
  ['bucket', 'timestamptz'],
  ['calls', 'int'],
  ['errors', 'int'],
  ['duration_sum_ms', 'bigint'],
  ['duration_max_ms', 'int'],
  ['duration_hist', 'int[]'],
  ['tokens', 'bigint'],
];
