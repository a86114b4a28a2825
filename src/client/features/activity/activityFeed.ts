import { LiveMessageTypes, type LiveMessage } from '../../../contract/live';
import { type SessionDto, type ToolCallDto, type ToolCallStatus } from '../../../contract/sessions';
import { ACTIVITY_PENDING_MAX, type ActivityEvent } from '../../../contract/activity';

// The activity page's buffer: newest first, bounded, deduplicated (a poll overlaps the previous
// one at its edge; a tool call can be seen pending and then finished). While paused the view is
// frozen and what arrives waits in `pending`, also bounded. Batches are merged in one step, so a
// burst of events costs one render. Every row held matches the filters: an event arriving (live or
// polled) is merged only if it matches, and a newer copy that no longer matches (a call shown as
// pending that ended ok) takes the old copy out.

export const FEED_LIMIT = 500;
/** How far "Load older" may grow the feed. */
export const FEED_LIMIT_WITH_OLDER = 5_000;

export interface ActivityFilters {
  serverId: string;
  tool: string;
  status: ToolCallStatus | '';
}
export const NO_FILTERS: ActivityFilters = { serverId: '', tool: '', status: '' };

export function hasFilters(filters: ActivityFilters): boolean {
  return Boolean(filters.serverId || filters.tool || filters.status);
}

/** Whether an event belongs in a feed with these filters (session events only without tool or status). */
export function matchesFilters(event: ActivityEvent, filters: ActivityFilters): boolean {
  if (event.kind !== 'tool_call')
    return !filters.tool && !filters.status && (!filters.serverId || event.session.serverId === filters.serverId);
  const call = event.toolCall;
  return (
    (!filters.serverId || call.serverId === filters.serverId) &&
    // A part of the name, in any case: as the server filters (activityStore.ts).
    (!filters.tool || call.toolName.toLowerCase().includes(filters.tool.toLowerCase())) &&
    (!filters.status || call.status === filters.status)
  );
}

export interface FeedState {
  events: ActivityEvent[];
  pending: ActivityEvent[];
  paused: boolean;
  /** How many events the feed keeps: FEED_LIMIT, more once older ones were loaded. */
  capacity: number;
  /** The last "Load older" found nothing more. */
  exhausted: boolean;
}

export type FeedAction =
  | { type: 'received'; events: ActivityEvent[]; filters?: ActivityFilters }
  | { type: 'olderReceived'; events: ActivityEvent[]; filters?: ActivityFilters }
  | { type: 'paused' }
  | { type: 'resumed' }
  | { type: 'cleared' };

export const initialFeed: FeedState = {
  events: [],
  pending: [],
  paused: false,
  capacity: FEED_LIMIT,
  exhausted: false,
};

export function eventKey(event: ActivityEvent): string {
  return event.kind === 'tool_call' ? `call:${event.toolCall.id}` : `${event.kind}:${event.session.id}`;
}

/** Newest first; a later copy of the same event replaces the earlier one; with filters, what does not match goes. */
export function mergeEvents(
  current: ActivityEvent[],
  incoming: ActivityEvent[],
  limit = FEED_LIMIT,
  filters?: ActivityFilters,
): ActivityEvent[] {
  if (incoming.length === 0) return current;
  const byKey = new Map<string, ActivityEvent>();
  for (const event of current) byKey.set(eventKey(event), event);
  for (const event of incoming) {
    const key = eventKey(event);
    if (!filters || matchesFilters(event, filters)) byKey.set(key, event);
    else byKey.delete(key);
  }
  const timed = [...byKey.values()].map((event) => ({ event, time: Date.parse(event.at) }));
  timed.sort((a, b) => b.time - a.time);
  return timed.slice(0, limit).map(({ event }) => event);
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case 'received':
      return state.paused
        ? { ...state, pending: mergeEvents(state.pending, action.events, FEED_LIMIT, action.filters) }
        : { ...state, events: mergeEvents(state.events, action.events, state.capacity, action.filters) };
    case 'olderReceived': {
      // Older events go below what is shown, paused or not; the feed grows to hold them.
      const capacity = Math.min(
        FEED_LIMIT_WITH_OLDER,
        Math.max(state.capacity, state.events.length + action.events.length),
      );
      const events = mergeEvents(state.events, action.events, capacity, action.filters);
      return { ...state, events, capacity, exhausted: events.length === state.events.length };
    }
    case 'paused':
      return { ...state, paused: true };
    case 'resumed':
      return { ...state, events: mergeEvents(state.events, state.pending, state.capacity), pending: [], paused: false };
    case 'cleared':
      return { ...initialFeed, paused: state.paused };
  }
}

/** The calls shown (or held while paused) as pending, newest first, as many as a poll may name. */
export function pendingCallIds(state: FeedState, max = ACTIVITY_PENDING_MAX): string[] {
  const ids: string[] = [];
  for (const list of [state.pending, state.events]) {
    for (const event of list) {
      if (ids.length >= max) return ids;
      if (event.kind === 'tool_call' && event.toolCall.status === 'pending') ids.push(event.toolCall.id);
    }
  }
  return ids;
}

/** The oldest time shown ("Load older" asks for what came before). */
export function oldestAt(state: FeedState): string | undefined {
  return state.events.at(-1)?.at;
}

/** The newest time held (the next poll asks only for what came after). */
export function newestAt(state: FeedState): string | undefined {
  const candidates = [state.events[0]?.at, state.pending[0]?.at].filter((at): at is string => Boolean(at));
  return candidates.sort().at(-1);
}

/**
 * A live-stream message as a feed event, or null for messages the feed does not show. The live
 * stream's `tool_call`, `session_started` and `session_ended` carry the same DTOs as the
 * activity-stream endpoint, so live and polled events merge without conversion of their content.
 */
export function liveMessageToEvent(message: LiveMessage): ActivityEvent | null {
  switch (message.type) {
    case LiveMessageTypes.toolCall:
    case LiveMessageTypes.toolCallStarted: {
      const toolCall = message.data as ToolCallDto;
      return { kind: 'tool_call', at: toolCall.startedAt, toolCall };
    }
    case LiveMessageTypes.sessionStarted: {
      const session = message.data as SessionDto;
      return { kind: 'session_started', at: session.startedAt, session };
    }
    case LiveMessageTypes.sessionEnded: {
      const session = message.data as SessionDto;
      return { kind: 'session_ended', at: session.endedAt ?? session.lastActivityAt, session };
    }
    default:
      return null;
  }
}
