import { useEffect, type Dispatch } from 'react';
import type { ActivityEvent } from '../../../contract/activity';
import { startAppListening } from '../../app/listeners';
import { liveMessageToEvent, matchesFilters, type ActivityFilters, type FeedAction } from './activityFeed';
import { liveActivityReceived } from './liveActivity';

/** Live events are gathered this long and merged as one batch: at most ~20 renders a second. */
export const LIVE_BATCH_MS = 50;

/** Feeds the activity buffer from the live stream while the page is open, in batches. */
export function useLiveActivity(
  workspaceId: string | null,
  filters: ActivityFilters,
  dispatch: Dispatch<FeedAction>,
): void {
  const { serverId, tool, status } = filters;
  useEffect(() => {
    if (!workspaceId) return undefined;
    const current = { serverId, tool, status };
    let batch: ActivityEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const events = batch;
      batch = [];
      dispatch({ type: 'received', events, filters: current });
    };
    const stop = startAppListening({
      actionCreator: liveActivityReceived,
      effect: (action) => {
        // The live stream delivers only the current workspace's messages (features/live).
        const event = liveMessageToEvent(action.payload);
        // A call that no longer matches still goes in: it takes its older copy (e.g. pending) out.
        if (!event || !matchesFilters(event, { ...current, status: '' })) return;
        batch.push(event);
        timer ??= setTimeout(flush, LIVE_BATCH_MS);
      },
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [workspaceId, serverId, tool, status, dispatch]);
}
