import { RangeRetention } from './retention';
import { z } from 'zod';
import { isoTime, pageLimit, uuid } from './queryFields';

// Sessions, messages and tool calls as the API and the live stream carry them (SPEC §7 Sessions,
// Tool calls; docs/api.md "Sessions and tool calls"). The proxy's recorder writes the rows; the
// sessions module reads them and maps them with src/server/modules/sessions/mappers.ts.

export const SESSION_STATUSES = ['active', 'ended'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const MESSAGE_DIRECTIONS = ['client_to_server', 'server_to_client'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];
export const MESSAGE_KINDS = ['request', 'response', 'notification', 'error'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
/**
 * A call is one `tools/call` request (docs/sessions.md "Definitions"). It is `pending` until the
 * agent sees its answer: `ok`, `error` (a JSON-RPC error, a result with isError, an HTTP error or a
 * dropped stream), or `timeout` (no answer within the recorder's bound, or none before its session
 * ended). An error, in every count, is a call that ended `error` or `timeout`.
 */
// cancelled: the agent (or the server) sent notifications/cancelled for it — its own choice, no failure.
export const TOOL_CALL_STATUSES = ['ok', 'error', 'timeout', 'cancelled', 'pending'] as const;
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];
/** The statuses counted as errors (sessions, dashboard, activity, analytics). */
export const FAILED_CALL_STATUSES: readonly ToolCallStatus[] = ['error', 'timeout'];
export function isFailedCall(status: ToolCallStatus): boolean {
  return status === 'error' || status === 'timeout';
}

/**
 * Upper bounds (ms, inclusive) of the 12 buckets of usage_minutes.duration_hist. The last bucket
 * is open. The recorder counts a call into `durationHistogramIndex(ms)`; readers estimate
 * percentiles from the counts (a percentile is reported as the upper bound of its bucket).
 */
export const DURATION_HISTOGRAM_BOUNDS_MS = [
  5,
  10,
  25,
  50,
  100,
  250,
  500,
  1000,
  2500,
  5000,
  10000,
  Number.POSITIVE_INFINITY,
] as const;

export function durationHistogramIndex(durationMs: number): number {
  const index = DURATION_HISTOGRAM_BOUNDS_MS.findIndex((bound) => durationMs <= bound);
  return index === -1 ? DURATION_HISTOGRAM_BOUNDS_MS.length - 1 : index;
}

export const SessionDto = z.object({
  id: z.string(),
  workspaceId: z.string(),
  serverId: z.string(),
  serverName: z.string().nullable(),
  mcpSessionId: z.string().nullable(),
  transport: z.string(),
  protocolVersion: z.string().nullable(),
  clientName: z.string().nullable(),
  clientVersion: z.string().nullable(),
  status: z.enum(SESSION_STATUSES),
  startedAt: z.string(),
  lastActivityAt: z.string(),
  endedAt: z.string().nullable(),
  /** endedAt (or, while active, lastActivityAt) minus startedAt. */
  durationMs: z.number().int(),
  messageCount: z.number().int(),
  callCount: z.number().int(),
  errorCount: z.number().int(),
});
export type SessionDto = z.infer<typeof SessionDto>;

export const MessageDto = z.object({
  seq: z.number().int(),
  direction: z.enum(MESSAGE_DIRECTIONS),
  kind: z.enum(MESSAGE_KINDS),
  method: z.string().nullable(),
  jsonrpcId: z.string().nullable(),
  /** The JSON-RPC message as recorded (cut to the recorder's limit when `truncated`). */
  payload: z.unknown(),
  sizeBytes: z.number().int(),
  truncated: z.boolean(),
  createdAt: z.string(),
  /**
   * A progress stream is stored as its first and last notification; the last one's row says how
   * many notifications the stream had in all (docs/proxy.md).
   */
  progressCount: z.number().int().optional(),
});
export type MessageDto = z.infer<typeof MessageDto>;

export const ToolCallDto = z.object({
  id: z.string(),
  sessionId: z.string(),
  serverId: z.string(),
  serverName: z.string().nullable().optional(),
  jsonrpcId: z.string().nullable(),
  toolName: z.string(),
  arguments: z.unknown(),
  result: z.unknown(),
  errorMessage: z.string().nullable(),
  status: z.enum(TOOL_CALL_STATUSES),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  requestBytes: z.number().int(),
  responseBytes: z.number().int(),
  /**
   * o200k_base tokens of the call's arguments and result, as analytics counts them (docs/analytics.md
   * "Token"); null until the recorder has counted them (a call still waiting for its answer).
   */
  tokens: z.number().int().nullable(),
  /** The request's params._meta (where agents put progress tokens, trace context, reasoning). */
  meta: z.unknown(),
  traceparent: z.string().nullable(),
  /**
   * A call the server answered with a task (MCP tasks; docs/proxy.md "Tasks"): the task's id and
   * its last status seen (working, input_required, completed, failed, cancelled). Absent otherwise.
   */
  task: z.object({ id: z.string(), status: z.string().nullable() }).optional(),
});
export type ToolCallDto = z.infer<typeof ToolCallDto>;

// ---- query strings (every value arrives as a string; bad values give 400 naming the field) ----

const pageOffset = z.coerce
  .number({ error: 'Expected a number' })
  .int('Expected an integer')
  .min(0, 'Must be 0 or more')
  .max(10_000_000)
  .default(0);
const fromBeforeTo = (q: { from?: string; to?: string }) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to);

export const SESSION_PAGE_MAX = 200;
/** Columns the sessions list sorts by (docs/sessions.md "Sessions list"). */
export const SESSION_SORTS = ['startedAt', 'duration', 'calls', 'errors', 'tokens', 'cost'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** An export holds at most this many sessions (the first ones in the chosen order). */
export const SESSION_EXPORT_MAX = 10_000;
export const SESSION_EXPORT_FORMATS = ['csv', 'json'] as const;
export type SessionExportFormat = (typeof SESSION_EXPORT_FORMATS)[number];

/** The filters and order shared by the list and its export. */
const SessionListFilterFields = z.object({
  serverId: uuid.optional(),
  /** Client name (case-insensitive prefix), e.g. "claude" matches "claude-code". */
  client: z.string().trim().min(1).max(200).optional(),
  status: z.enum(SESSION_STATUSES, { error: "Expected 'active' or 'ended'" }).optional(),
  /** Sessions started at or after. */
  from: isoTime.optional(),
  /** Sessions started at or before. */
  to: isoTime.optional(),
  /**
   * Text search over the session's tool calls (tool names and arguments) and its prompt and
   * resource requests (`prompts/get` name and arguments, `resources/read` URI).
   */
  q: z.string().trim().min(1).max(200).optional(),
  /** true: only sessions with at least one error (docs/sessions.md "Definitions"); false: only those without. */
  hasErrors: z
    .enum(['true', 'false'], { error: "Expected 'true' or 'false'" })
    .transform((flag) => flag === 'true')
    .optional(),
  sort: z.enum(SESSION_SORTS, { error: `Expected one of ${SESSION_SORTS.join(', ')}` }).default('startedAt'),
  order: z.enum(SORT_ORDERS, { error: "Expected 'asc' or 'desc'" }).default('desc'),
});

export const SessionListQuery = SessionListFilterFields.extend({
  limit: pageLimit(SESSION_PAGE_MAX, 50),
  offset: pageOffset,
}).refine(fromBeforeTo, { error: 'Must not be before from', path: ['to'] });
export type SessionListQuery = z.input<typeof SessionListQuery>;

export const SessionExportQuery = SessionListFilterFields.extend({
  format: z.enum(SESSION_EXPORT_FORMATS, { error: "Expected 'csv' or 'json'" }).default('csv'),
}).refine(fromBeforeTo, { error: 'Must not be before from', path: ['to'] });
export type SessionExportQuery = z.input<typeof SessionExportQuery>;

/**
 * A session as the list shows it: with its tokens (arguments + results + tool definitions, as
 * analytics count them) and their cost in USD at the workspace's current prices (docs/analytics.md).
 */
export const SessionListItem = SessionDto.extend({
  tokens: z.number().int(),
  cost: z.number(),
});
export type SessionListItem = z.infer<typeof SessionListItem>;

export const SessionListResult = z.object({
  sessions: z.array(SessionListItem),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  retention: RangeRetention.optional(), // since when sessions are kept (contract/retention.ts)
});
export type SessionListResult = z.infer<typeof SessionListResult>;

/** The JSON export: the filtered sessions in the chosen order (at most SESSION_EXPORT_MAX). */
export const SessionExport = z.object({
  exportedAt: z.string(),
  /** Sessions matching the filters; more than `sessions.length` when the export was capped. */
  total: z.number().int(),
  sessions: z.array(SessionListItem),
});
export type SessionExport = z.infer<typeof SessionExport>;

export const SessionText = {
  stillActive: 'This session is still active: it can be deleted once it has ended',
  onlyManagersDelete: 'Only owners and admins can delete sessions',
} as const;
export const REPLAY_PAGE_MAX = 1000;
export const ReplayQuery = z
  .object({
    limit: pageLimit(REPLAY_PAGE_MAX, 200),
    offset: pageOffset,
    /** Messages recorded at or after. */
    startTime: isoTime.optional(),
    /** Messages recorded at or before. */
    endTime: isoTime.optional(),
  })
  .refine((q) => !q.startTime || !q.endTime || Date.parse(q.startTime) <= Date.parse(q.endTime), {
    error: 'Must not be before startTime',
    path: ['endTime'],
  });
export type ReplayQuery = z.input<typeof ReplayQuery>;

export const ReplayResult = z.object({
  session: SessionDto,
  /** In seq order. */
  messages: z.array(MessageDto),
  /** Messages in the time window (all pages). */
  total: z.number().int(),
  /** The session's tool calls whose request falls in this page, so a replay can show results beside requests. */
  toolCalls: z.array(ToolCallDto),
});
export type ReplayResult = z.infer<typeof ReplayResult>;
