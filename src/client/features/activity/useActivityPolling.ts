import { useEffect, useRef, useState, type Dispatch } from 'react';
import type { ActivityEvent, ToolCallStatus } from '../../../contract/sessions';
import { errorMessage } from '../../api/apiError';
import { useLazyGetActivityStreamQuery } from '../sessions/sessionsApi';
import type { FeedAction } from './activityFeed';

export const ACTIVITY_POLL_MS = 3_000;
/** After a full page (more may be waiting) the next poll comes this soon. */
export const BUSY_POLL_MS = 500;
const POLL_LIMIT = 200;
/**
 * Each poll re-asks for this much before the newest event held: the recorder writes in batches,
 * so an event can land in the database a moment after a later one was already read. The feed
 * drops the duplicates.
 */
export const POLL_OVERLAP_MS = 5_000;

export interface ActivityFilters {
  serverId: string;
  tool: string;
  status: ToolCallStatus | '';
}

export type PollState = { phase: 'loading' } | { phase: 'ready' } | { phase: 'failed'; message: string };
const READY: PollState = { phase: 'ready' };

/**
 * Feeds the activity buffer from the activity-stream endpoint every few seconds: the fallback
 * while the live stream is closed. A change of workspace or filters starts over.
 */
export function useActivityPolling(workspaceId: string | null, filters: ActivityFilters, dispatch: Dispatch<FeedAction>): PollState {
  const [fetchActivity] = useLazyGetActivityStreamQuery();
  const [state, setState] = useState<PollState>({ phase: 'loading' });
  const newest = useRef<number | undefined>(undefined);
  const { serverId, tool, status } = filters;

  useEffect(() => {
    if (!workspaceId) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    newest.current = undefined;
    dispatch({ type: 'cleared' });
    setState({ phase: 'loading' });

    const poll = async () => {
      const since = newest.current === undefined ? undefined : new Date(newest.current - POLL_OVERLAP_MS).toISOString();
      let delay = ACTIVITY_POLL_MS;
      try {
        const result = await fetchActivity({ workspaceId, limit: POLL_LIMIT, since, serverId: serverId || undefined, tool: tool || undefined, status: status || undefined }).unwrap();
        if (stopped) return;
        dispatch({ type: 'received', events: result.events });
        newest.current = latest(newest.current, result.events);
        if (result.events.length >= POLL_LIMIT) delay = BUSY_POLL_MS;
        setState((current) => (current.phase === 'ready' ? current : READY));
      } catch (error) {
        if (!stopped) setState({ phase: 'failed', message: errorMessage(error) });
      } finally {
        if (!stopped) timer = setTimeout(() => void poll(), delay);
      }
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [workspaceId, serverId, tool, status, fetchActivity, dispatch]);

  return state;
}

function latest(current: number | undefined, events: ActivityEvent[]): number | undefined {
  return events.reduce((max, event) => Math.max(max ?? 0, Date.parse(event.at)), current);
}
