import type {
  MessageDirection,
  MessageDto,
  MessageKind,
  SessionDto,
  SessionStatus,
  ToolCallDto,
  ToolCallStatus,
} from '../../../contract/sessions';

// Rows as the sessions, messages and tool_calls tables hold them (m002_tracing) and their DTOs.
// The recorder maps what it publishes on the live stream with these too, so the API and the
// stream always agree. Timestamps arrive as Date (pg, PGlite) or as ISO strings (the recorder's
// in-memory rows); counts may arrive as strings when a driver maps int8.

type Time = Date | string;

export interface SessionRow {
  id: string;
  workspace_id: string;
  server_id: string;
  /** Joined from servers when the query has it. */
  server_name?: string | null;
  mcp_session_id: string | null;
  transport: string;
  protocol_version: string | null;
  client_name: string | null;
  client_version: string | null;
  status: string;
  started_at: Time;
  last_activity_at: Time;
  ended_at: Time | null;
  message_count: number | string;
  call_count: number | string;
  error_count: number | string;
}

export interface MessageRow {
  seq: number | string;
  direction: string;
  kind: string;
  method: string | null;
  jsonrpc_id: string | null;
  payload: unknown;
  size_bytes: number | string;
  truncated: boolean;
  created_at: Time;
  /** Set on the last stored row of a coalesced progress stream: how many notifications it stands for. */
  progress_count?: number | null;
}

export interface ToolCallRow {
  id: string;
  session_id: string;
  server_id: string;
  server_name?: string | null;
  jsonrpc_id: string | null;
  tool_name: string;
  arguments: unknown;
  result: unknown;
  error_message: string | null;
  status: string;
  started_at: Time;
  ended_at: Time | null;
  duration_ms: number | string | null;
  request_bytes: number | string;
  response_bytes: number | string;
  argument_tokens?: number | string | null;
  result_tokens?: number | string | null;
  meta: unknown;
  traceparent: string | null;
  /** Of a call answered with a task (migration 038). */
  task_id?: string | null;
  task_status?: string | null;
}

export function toIso(time: Time): string {
  // Strings are the recorder's own toISOString() output: already in this form.
  return typeof time === 'string' ? time : time.toISOString();
}

function toMs(time: Time): number {
  return time instanceof Date ? time.getTime() : Date.parse(time);
}

function toInt(value: number | string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : Number.parseInt(value, 10) || 0;
}

export function toSessionDto(row: SessionRow): SessionDto {
  const end = row.ended_at ?? row.last_activity_at;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    serverId: row.server_id,
    serverName: row.server_name ?? null,
    mcpSessionId: row.mcp_session_id,
    transport: row.transport,
    protocolVersion: row.protocol_version,
    clientName: row.client_name,
    clientVersion: row.client_version,
    status: (row.status === 'ended' ? 'ended' : 'active') satisfies SessionStatus,
    startedAt: toIso(row.started_at),
    lastActivityAt: toIso(row.last_activity_at),
    endedAt: row.ended_at === null ? null : toIso(row.ended_at),
    durationMs: Math.max(0, Math.round(toMs(end) - toMs(row.started_at))),
    messageCount: toInt(row.message_count),
    callCount: toInt(row.call_count),
    errorCount: toInt(row.error_count),
  };
}

export function toMessageDto(row: MessageRow): MessageDto {
  return {
    seq: toInt(row.seq),
    direction: row.direction as MessageDirection,
    kind: row.kind as MessageKind,
    method: row.method,
    jsonrpcId: row.jsonrpc_id,
    payload: row.payload ?? null,
    sizeBytes: toInt(row.size_bytes),
    truncated: row.truncated,
    createdAt: toIso(row.created_at),
    ...(row.progress_count ? { progressCount: row.progress_count } : {}),
  };
}

/** A call's tokens as analytics counts them: arguments + result, by the tokenizer; null until counted. */
function callTokens(row: ToolCallRow): number | null {
  if (row.argument_tokens === null || row.argument_tokens === undefined) return null;
  return toInt(row.argument_tokens) + toInt(row.result_tokens ?? 0);
}

export function toToolCallDto(row: ToolCallRow): ToolCallDto {
  const dto: ToolCallDto = {
    id: row.id,
    sessionId: row.session_id,
    serverId: row.server_id,
    jsonrpcId: row.jsonrpc_id,
    toolName: row.tool_name,
    arguments: row.arguments ?? null,
    result: row.result ?? null,
    errorMessage: row.error_message,
    status: row.status as ToolCallStatus,
    startedAt: toIso(row.started_at),
    endedAt: row.ended_at === null ? null : toIso(row.ended_at),
    durationMs: row.duration_ms === null ? null : toInt(row.duration_ms),
    requestBytes: toInt(row.request_bytes),
    responseBytes: toInt(row.response_bytes),
    tokens: callTokens(row),
    meta: row.meta ?? null,
    traceparent: row.traceparent,
  };
  if (row.server_name !== undefined) dto.serverName = row.server_name;
  if (row.task_id) dto.task = { id: row.task_id, status: row.task_status ?? null };
  return dto;
}
