import { useEffect, useEffectEvent } from 'react';
import type { SessionDto, ToolCallDto } from '../../../contract/sessions';
import { LiveMessageTypes } from '../../../contract/live';
import { startAppListening } from '../../app/listeners';
import { liveActivityReceived } from '../activity';

/** While live traffic of the open session flows, its page refreshes at most this often. */
export const LIVE_SESSION_REFRESH_MS = 1_000;

/**
 * Refreshes an open session's page when the live stream reports one of its calls or its end.
 * `enabled` is false while the user is replaying, so new messages never jump the replay.
 */
export function useLiveSessionRefresh(sessionId: string, enabled: boolean, refresh: () => void): void {
  // The latest `refresh` when the timer fires; a new one does not restart the listening.
  const refreshNow = useEffectEvent(refresh);
  useEffect(() => {
    if (!enabled) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = startAppListening({
      actionCreator: liveActivityReceived,
      effect: ({ payload }) => {
        const concerned =
          payload.type === LiveMessageTypes.toolCall
            ? (payload.data as ToolCallDto).sessionId === sessionId
            : (payload.data as SessionDto).id === sessionId;
        if (!concerned || timer) return;
        timer = setTimeout(() => {
          timer = undefined;
          refreshNow();
        }, LIVE_SESSION_REFRESH_MS);
      },
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [sessionId, enabled]);
}
