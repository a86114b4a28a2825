import { useEffect, useMemo } from 'react';
import { isAnyOf } from '@reduxjs/toolkit';
import { useActorRef } from '@xstate/react';
import { StorageKeys } from '../../../contract/constants';
import { accessTokenRefreshed, sessionExpired } from '../../api/authEvents';
import { getAccessToken } from '../../api/tokens';
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks';
import { startAppListening } from '../../app/listeners';
import { showToast } from '../../components/toast/showToast';
import { signedIn, signedOut } from '../auth/authSlice';
import { liveStreamConnectionChanged } from '../notifications/notificationsSlice';
import { selectCurrentWorkspaceId } from '../workspaces/workspaceSlice';
import { eventSourceConnection } from './eventSourceConnection';
import { createLiveMessageEffects, resyncAfterGap } from './liveMessageEffects';
import { liveStatusChanged } from './liveSlice';
import { liveStreamMachine, liveStreamStatus } from './liveStreamMachine';

interface LiveStreamProps {
  /** The connection actor; EventSource in the app, a fake in tests. */
  connection?: typeof eventSourceConnection;
}

/**
 * Runs the live stream machine for the signed-in user's current workspace (renders nothing;
 * mounted once by the shell). It feeds the machine the token and workspace whenever either
 * changes — a sign-in, a refresh, a workspace switch, or another tab's storage event — and turns
 * delivered messages into cache updates, notifications and toasts (liveMessageEffects.ts).
 */
export function LiveStream({ connection = eventSourceConnection }: LiveStreamProps) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);

  const deliver = useMemo(
    () => createLiveMessageEffects({ dispatch, getState: () => store.getState(), toast: showToast }),
    [dispatch, store],
  );

  const logic = useMemo(
    () =>
      liveStreamMachine.provide({
        actors: { connection },
        actions: {
          deliver: ({ context }, { message }) => {
            // Messages of a stream opened for another workspace never reach the current one's cache.
            if (context.workspaceId && context.workspaceId === selectCurrentWorkspaceId(store.getState()))
              deliver(message, context.workspaceId);
          },
        },
      }),
    [connection, deliver, store],
  );
  const actor = useActorRef(logic, { input: { token: getAccessToken(), workspaceId } });

  // Mirror the machine's state for the header dot and the bell's polling; a stream that opens
  // again for the workspace it delivered before fetches what it missed in between.
  useEffect(() => {
    let previous = '';
    let deliveredFor: string | null = null;
    const report = () => {
      const snapshot = actor.getSnapshot();
      const status = liveStreamStatus(snapshot.value);
      const key = `${status}|${snapshot.context.error}`;
      if (key === previous) return;
      previous = key;
      if (status === 'connected') {
        const openedFor = snapshot.context.workspaceId;
        if (openedFor !== null && openedFor === deliveredFor) resyncAfterGap(dispatch, openedFor);
        deliveredFor = openedFor;
      }
      dispatch(liveStatusChanged({ status, error: snapshot.context.error }));
      dispatch(liveStreamConnectionChanged(status === 'connected'));
    };
    report();
    const subscription = actor.subscribe(report);
    return () => subscription.unsubscribe();
  }, [actor, dispatch]);

  // Credentials: the machine ignores a CREDENTIALS event that changes nothing.
  useEffect(() => {
    const sendCredentials = () => actor.send({ type: 'CREDENTIALS', token: getAccessToken(), workspaceId });
    sendCredentials();
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === StorageKeys.accessToken) sendCredentials();
    };
    window.addEventListener('storage', onStorage);
    const stopListening = startAppListening({
      matcher: isAnyOf(signedIn, signedOut, sessionExpired, accessTokenRefreshed),
      effect: () => sendCredentials(),
    });
    return () => {
      window.removeEventListener('storage', onStorage);
      stopListening();
    };
  }, [actor, workspaceId]);

  // A hidden page lets its stream go; restored from the back-forward cache, it reconnects.
  useEffect(() => {
    const onHide = () => actor.send({ type: 'PAGE_HIDDEN' });
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) actor.send({ type: 'PAGE_SHOWN' });
    };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
    };
  }, [actor]);

  return null;
}
