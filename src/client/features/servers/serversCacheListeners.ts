import { isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { ServerDto } from '../../../contract/servers';
import { sessionExpired } from '../../api/authEvents';
import type { AppStartListening } from '../../app/listeners';
import { signedOut } from '../auth/authSlice';
import { serversApi } from './serversApi';
import { serversCacheCleared, serversCached, writeStoredServersCache } from './serversCacheSlice';

// The servers cache's reactions (serversCacheSlice.ts), registered by app/ with the others.
export function serversCacheListeners(startAppListening: AppStartListening): void {
  // Every fresh list, and every live patch to one, is saved.
  startAppListening({
    matcher: serversApi.endpoints.getServers.matchFulfilled,
    effect: (action, api) => {
      api.dispatch(
        serversCached({ workspaceId: action.meta.arg.originalArgs, servers: action.payload, savedAt: Date.now() }),
      );
    },
  });
  startAppListening({
    predicate: (action) => action.type === `${serversApi.reducerPath}/queries/queryResultPatched`,
    effect: (action, api) => {
      const { queryCacheKey } = (action as unknown as PayloadAction<{ queryCacheKey: string }>).payload;
      const entry = api.getState().api.queries[queryCacheKey] as
        { endpointName?: string; originalArgs?: unknown; data?: unknown } | undefined;
      if (entry?.endpointName !== 'getServers' || !entry.data || typeof entry.originalArgs !== 'string') return;
      api.dispatch(
        serversCached({ workspaceId: entry.originalArgs, servers: entry.data as ServerDto[], savedAt: Date.now() }),
      );
    },
  });
  // One account's servers never show for another: the copy goes when the session ends. (Not on
  // sign-in: the app signs in from stored tokens at every start, and the copy is for exactly that.)
  startAppListening({
    matcher: isAnyOf(signedOut, sessionExpired),
    effect: (_action, api) => {
      api.dispatch(serversCacheCleared());
    },
  });
  startAppListening({
    matcher: isAnyOf(serversCached, serversCacheCleared),
    effect: (_action, api) => writeStoredServersCache(api.getState().serversCache),
  });
}
