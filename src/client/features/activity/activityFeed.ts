import { LiveMessageTypes, type LiveMessage } from '../../../contract/live';
import { ACTIVITY_PENDING_MAX, type ActivityEvent, type SessionDto, type ToolCallDto } from '../../../contract/sessions';

// The activity page's buffer: newest first, bounded, deduplicated (a poll overlaps the previous
// one at its edge; a tool call can be seen pending and then finished). While paused the view is
// frozen and what arrives waits in `pending`, also bounded. Batches are merged in one step, so a
// burst of events costs one render.

export const FEED_LIMIT = 500;

export interface FeedState {
  events: ActivityEvent[];
  pending: ActivityEvent[];
  paused: boolean;
}

export type FeedAction = { type: 'received'; events: ActivityEvent[] } | { type: 'paused' } | { type: 'resumed' } | { type: 'cleared' };

export const initialFeed: FeedState = { events: [], pending: [], paused: false };

export function eventKey(event: ActivityEvent): string {
  return event.kind === 'tool_call' ? `call:${event.toolCall.id}` : `${event.kind}:${event.session.id}`;
}

/** Newest first; a later copy of the same event replaces the earlier one. */
export function mergeEvents(current: ActivityEvent[], incoming: ActivityEvent[], limit = FEED_LIMIT): ActivityEvent[] {
  if (incoming.length === 0) return current;
  const byKey = new Map<string, ActivityEvent>();
  for (const event of current) byKey.set(eventKey(event), event);
  for (const event of incoming) byKey.set(eventKey(event), event);
  const timed = [...byKey.values()].map((event) => ({ event, time: Date.parse(event.at) }));
  timed.sort((a, b) => b.time - a.time);
  return timed.slice(0, limit).map(({ event }) => event);
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case 'received':
      return state.paused ? { ...state, pending: mergeEvents(state.pending, action.events) } : { ...state, events: mergeEvents(state.events, action.events) };
    case 'paused':
      return { ...state, paused: true };
    case 'resumed':
      return { events: mergeEvents(state.events, state.pending), pending: [], paused: false };
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
    case LiveMessageTypes.toolCall: {
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
