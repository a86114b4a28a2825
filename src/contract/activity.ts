import { z } from 'zod';
import { isoTime, pageLimit, uuid } from './queryFields';
import { SessionDto, TOOL_CALL_STATUSES, ToolCallDto } from './sessions';

// The activity stream and the live tool-call list (SPEC §7 Activity; docs/api.md): events built from
// the sessions and tool calls of src/contract/sessions.ts.

export const ACTIVITY_PAGE_MAX = 200;
export const ACTIVITY_PENDING_MAX = 50;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ActivityStreamQuery = z.object({
  limit: pageLimit(ACTIVITY_PAGE_MAX, 50),
  /** Only events after this time (the polling fallback passes the newest `at` it holds). */
  since: isoTime.optional(),
  /** Only events before this time (the page's "Load older" passes the oldest `at` it holds). */
  before: isoTime.optional(),
  serverId: uuid.optional(),
  /** Exact tool name. */
  tool: z.string().trim().min(1).max(200).optional(),
  status: z
    .enum(TOOL_CALL_STATUSES, { error: "Expected 'ok', 'error', 'timeout', 'cancelled' or 'pending'" })
    .optional(),
  /**
   * Calls the client shows as pending, comma-separated (at most ACTIVITY_PENDING_MAX): their
   * current state comes back too, whatever `since` says — a poll only asks for what started after
   * its last one, so a slow call would otherwise stay pending on a polled page for good. They
   * come back when they match the server and tool filters, whatever their status now.
   */
  pendingCallIds: z
    .string()
    .transform((text) => text.split(',').filter(Boolean))
    .refine((ids) => ids.length <= ACTIVITY_PENDING_MAX, { error: `At most ${ACTIVITY_PENDING_MAX} ids` })
    .refine((ids) => ids.every((id) => UUID_TEXT.test(id)), { error: 'Expected UUIDs separated by commas' })
    .optional(),
});
export type ActivityStreamQuery = z.input<typeof ActivityStreamQuery>;

export const ACTIVITY_EVENT_KINDS = ['tool_call', 'session_started', 'session_ended'] as const;
export type ActivityEventKind = (typeof ACTIVITY_EVENT_KINDS)[number];
export const ActivityEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool_call'), at: z.string(), toolCall: ToolCallDto }),
  z.object({ kind: z.literal('session_started'), at: z.string(), session: SessionDto }),
  z.object({ kind: z.literal('session_ended'), at: z.string(), session: SessionDto }),
]);
export type ActivityEvent = z.infer<typeof ActivityEvent>;

export const ActivityStreamResult = z.object({
  /** Newest first. With tool or status filters, only tool calls. */
  events: z.array(ActivityEvent),
});
export type ActivityStreamResult = z.infer<typeof ActivityStreamResult>;

export const LIVE_PAGE_MAX = 200;
export const ToolCallsLiveQuery = z.object({
  limit: pageLimit(LIVE_PAGE_MAX, 50),
  session_id: uuid.optional(),
});
export type ToolCallsLiveQuery = z.input<typeof ToolCallsLiveQuery>;

export const ToolCallsLive = z.object({
  /** Newest first. */
  toolCalls: z.array(ToolCallDto),
});
export type ToolCallsLive = z.infer<typeof ToolCallsLive>;
