import { useEffect, useState } from 'react';
import { useActorRef } from '@xstate/react';
import { fromPromise } from 'xstate';
import { StorageKeys } from '../../../contract/constants';
import { isApiError } from '../../api/apiError';
import { accessTokenRefreshed, sessionExpired } from '../../api/authEvents';
import { refreshAccessToken } from '../../api/refreshAccessToken';
import { getAccessToken, getRefreshToken } from '../../api/tokens';
import { useAppDispatch } from '../../app/hooks';
import { startAppListening } from '../../app/listeners';
import type { AppDispatch } from '../../app/rootState';
import { workspacesApi } from '../workspaces/workspacesApi';
import { authApi } from './authApi';
import { signedIn, signedOut } from './authSlice';
import { clearSession, logout } from './session';
import { SessionFailure, tokenLifecycleMachine } from './tokenLifecycleMachine';

/** The events SPEC §4 counts as activity for the auto refresh. */
const ACTIVITY_EVENTS = ['mousemove', 'keydown', 'click', 'scroll'] as const;
/** Activity only needs minute precision; one event per second is plenty. */
const ACTIVITY_THROTTLE_MS = 1_000;

function failureOf(error: unknown): SessionFailure {
  if (!isApiError(error)) return new SessionFailure(false);
  const ended = Boolean(error.sessionEnded) || error.status === 401 || error.status === 'CLIENT_ERROR';
  return new SessionFailure(ended, error.message);
}

/** The machine with its effects wired to the API and the store. */
export function connectTokenLifecycle(dispatch: AppDispatch) {
  return tokenLifecycleMachine.provide({
    actors: {
      refreshAccessToken: fromPromise(async () => {
        const outcome = await refreshAccessToken(dispatch);
        if (outcome.ok) return { accessToken: outcome.accessToken };
        throw new SessionFailure(outcome.signedOut, outcome.error.message);
      }),
      loadProfile: fromPromise(async () => {
        const result = await dispatch(
          authApi.endpoints.getMe.initiate(undefined, { subscribe: false, forceRefetch: true }),
        );
        if (result.error) throw failureOf(result.error);
        return result.data ?? null;
      }),
      logOutOnServer: fromPromise(async () => {
        await dispatch(logout());
      }),
    },
    actions: {
      signIn: (_, { user }) => {
        dispatch(signedIn(user));
      },
      clearSession: () => clearSession(dispatch),
      markSignedOut: () => {
        dispatch(signedOut());
      },
      reloadWorkspaces: () => {
        void dispatch(
          workspacesApi.endpoints.getWorkspaces.initiate(undefined, { subscribe: false, forceRefetch: true }),
        );
      },
    },
  });
}

/**
 * Runs the token lifecycle for the app (mounted once, inside the store provider). Renders
 * nothing: it feeds the machine with user activity, the storage event of other tabs and the
 * session changes made elsewhere (login, logout, a refresh inside a request).
 */
export function TokenLifecycle() {
  const dispatch = useAppDispatch();
  const [logic] = useState(() => connectTokenLifecycle(dispatch));
  const actor = useActorRef(logic, { input: { accessToken: getAccessToken(), refreshToken: getRefreshToken() } });

  useEffect(() => {
    let lastSentAt = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - lastSentAt < ACTIVITY_THROTTLE_MS) return;
      lastSentAt = now;
      actor.send({ type: 'USER_ACTIVE' });
    };
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { passive: true, capture: true });
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
    };
  }, [actor]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      // key null: the other tab cleared the whole storage.
      if (event.key !== StorageKeys.accessToken && event.key !== null) return;
      const accessToken = event.key === null ? getAccessToken() : event.newValue;
      actor.send({ type: 'ACCESS_TOKEN_CHANGED_IN_OTHER_TAB', accessToken: accessToken || null });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [actor]);

  useEffect(() => {
    const stops = [
      startAppListening({
        actionCreator: signedIn,
        effect: () => actor.send({ type: 'SIGNED_IN', accessToken: getAccessToken() }),
      }),
      startAppListening({
        actionCreator: accessTokenRefreshed,
        effect: (action) => actor.send({ type: 'ACCESS_TOKEN_REFRESHED', accessToken: action.payload.accessToken }),
      }),
      startAppListening({
        matcher: (action) => signedOut.match(action) || sessionExpired.match(action),
        effect: () => actor.send({ type: 'SIGNED_OUT' }),
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }, [actor]);

  return null;
}
