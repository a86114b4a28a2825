import { useEffect, useRef, useState, type Dispatch } from 'react';
import type { ActivityEvent } from '../../../contract/activity';
import { errorMessage } from '../../api/apiError';
import { useAppDispatch } from '../../app/hooks';
import { sessionsApi } from '../sessions/sessionsApi';
import {
  initialFeed,
  oldestAt,
  pendingCallIds,
  type ActivityFilters,
  type FeedAction,
  type FeedState,
} from './activityFeed';

export type { ActivityFilters } from './activityFeed';

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

export type PollState = { phase: 'loading' } | { phase: 'ready' } | { phase: 'failed'; message: string };
const READY: PollState = { phase: 'ready' };
const LOADING: PollState = { phase: 'loading' };

/** A state and the feed it is about (workspace and filters): a new feed starts from its own first state. */
interface Keyed<T> {
  key: string;
  state: T;
}

function feedKey(workspaceId: string | null, { serverId, tool, status }: ActivityFilters): string {
  return JSON.stringify([workspaceId, serverId, tool, status]);
}

/**
 * Feeds the activity buffer from the activity-stream endpoint: every few seconds while the live
 * stream is down (the fallback), once to catch up when it is up. A change of workspace or
 * filters starts the feed over. Each poll names the calls the feed shows as pending, so a slow
 * call is seen finishing even though it started before the poll's `since`.
 */
export function useActivityPolling(
  workspaceId: string | null,
  filters: ActivityFilters,
  dispatch: Dispatch<FeedAction>,
  live: boolean,
  feed: FeedState,
): PollState {
  const appDispatch = useAppDispatch();
  const key = feedKey(workspaceId, filters);
  // A change of workspace or filters reads as loading at once (derived, not set by an effect).
  const [polled, setPolled] = useState<Keyed<PollState>>({ key, state: LOADING });
  const newest = useRef<number | undefined>(undefined);
  // Read when a poll goes out; a new feed must not restart the polling.
  const currentFeed = useRef(feed);
  useEffect(() => {
    currentFeed.current = feed;
  }, [feed]);
  const { serverId, tool, status } = filters;

  useEffect(() => {
    newest.current = undefined;
    // The poll of this same commit must not name the old filters' pending calls (the rendered feed still holds them).
    currentFeed.current = initialFeed;
    dispatch({ type: 'cleared' });
  }, [workspaceId, serverId, tool, status, dispatch]);

  useEffect(() => {
    if (!workspaceId) return undefined;
    const key = feedKey(workspaceId, { serverId, tool, status });
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;

    const poll = async () => {
      const since = newest.current === undefined ? undefined : new Date(newest.current - POLL_OVERLAP_MS).toISOString();
      let next: number | null = live ? null : ACTIVITY_POLL_MS;
      const current = { serverId, tool, status };
      const pending = pendingCallIds(currentFeed.current);
      // Not subscribed: nothing keeps (or re-fetches on invalidation) a page the feed already holds.
      const request = appDispatch(
        sessionsApi.endpoints.getActivityStream.initiate(
          {
            workspaceId,
            limit: POLL_LIMIT,
            since,
            serverId: serverId || undefined,
            tool: tool || undefined,
            status: status || undefined,
            pendingCallIds: pending.length > 0 ? pending.join(',') : undefined,
          },
          { subscribe: false, forceRefetch: true },
        ),
      );
      try {
        const result = await request.unwrap();
        if (stop.signal.aborted) return;
        dispatch({ type: 'received', events: result.events, filters: current });
        newest.current = latest(newest.current, result.events);
        if (result.events.length >= POLL_LIMIT) next = BUSY_POLL_MS;
        setPolled((polled) => (polled.key === key && polled.state.phase === 'ready' ? polled : { key, state: READY }));
      } catch (error) {
        if (stop.signal.aborted) return;
        setPolled({ key, state: { phase: 'failed', message: errorMessage(error) } });
        next = ACTIVITY_POLL_MS;
      }
      if (next !== null) timer = setTimeout(() => void poll(), next);
    };
    void poll();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [workspaceId, serverId, tool, status, live, appDispatch, dispatch]);

  return polled.key === key ? polled.state : LOADING;
}

export type OlderState = { phase: 'idle' } | { phase: 'loading' } | { phase: 'failed'; message: string };
const IDLE: OlderState = { phase: 'idle' };

/**
 * "Load older": the matching events before the oldest one shown, from the server (a filter chosen
 * now also finds the calls of an hour ago, not only what arrives from now on).
 */
export function useOlderActivity(
  workspaceId: string | null,
  filters: ActivityFilters,
  dispatch: Dispatch<FeedAction>,
  feed: FeedState,
) {
  const appDispatch = useAppDispatch();
  const key = feedKey(workspaceId, filters);
  // A change of workspace or filters forgets the last "load older" (derived, not reset by an effect).
  const [older, setOlder] = useState<Keyed<OlderState>>({ key, state: IDLE });
  const setState = (state: OlderState) => setOlder({ key, state });
  const { serverId, tool, status } = filters;
  const loadOlder = async () => {
    const before = oldestAt(feed);
    if (!workspaceId || !before) return;
    setState({ phase: 'loading' });
    const request = appDispatch(
      sessionsApi.endpoints.getActivityStream.initiate(
        {
          workspaceId,
          limit: POLL_LIMIT,
          before,
          serverId: serverId || undefined,
          tool: tool || undefined,
          status: status || undefined,
        },
        { subscribe: false, forceRefetch: true },
      ),
    );
    try {
      const result = await request.unwrap();
      dispatch({ type: 'olderReceived', events: result.events, filters: { serverId, tool, status } });
      setState({ phase: 'idle' });
    } catch (error) {
      setState({ phase: 'failed', message: errorMessage(error) });
    }
  };
  return { state: older.key === key ? older.state : IDLE, loadOlder };
}

function latest(current: number | undefined, events: ActivityEvent[]): number | undefined {
  return events.reduce((max, event) => Math.max(max ?? 0, Date.parse(event.at)), current);
}
