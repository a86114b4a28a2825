import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { SERVERS_CACHE_TTL_MS } from '../../../contract/constants';
import type { ServerDto } from '../../../contract/servers';
import { sessionExpired } from '../../api/authEvents';
import { startAppListening } from '../../app/listeners';
import { signedOut } from '../auth/authSlice';
import { serversApi } from './serversApi';

// SPEC §4/§9 servers cache: each workspace's list is kept in session storage for 5 minutes, so
// the servers page (and a reload within the tab) shows the last list at once while it refreshes.
// Session storage keeps it to this tab and drops it when the tab closes.
export const SERVERS_CACHE_STORAGE_KEY = 'toolscope.servers_cache';

export interface CachedServers {
  servers: ServerDto[];
  savedAt: number;
}

export interface ServersCacheState {
  byWorkspace: Record<string, CachedServers>;
}

function readStored(): ServersCacheState {
  try {
    const raw = window.sessionStorage.getItem(SERVERS_CACHE_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === 'object' && 'byWorkspace' in parsed) return parsed as ServersCacheState;
  } catch {
    // Unreadable or unavailable storage: start empty.
  }
  return { byWorkspace: {} };
}

function writeStored(state: ServersCacheState): void {
  try {
    if (Object.keys(state.byWorkspace).length === 0) window.sessionStorage.removeItem(SERVERS_CACHE_STORAGE_KEY);
    else window.sessionStorage.setItem(SERVERS_CACHE_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Quota or privacy mode: the in-memory copy still works for this visit.
  }
}

export const serversCacheSlice = createSlice({
  name: 'serversCache',
  initialState: readStored,
  reducers: {
    serversCached(state, action: PayloadAction<{ workspaceId: string; servers: ServerDto[]; savedAt: number }>) {
      const { workspaceId, servers, savedAt } = action.payload;
      state.byWorkspace[workspaceId] = { servers, savedAt };
      // Expired entries of other workspaces are of no use any more.
      for (const [id, entry] of Object.entries(state.byWorkspace)) {
        if (savedAt - entry.savedAt >= SERVERS_CACHE_TTL_MS) delete state.byWorkspace[id];
      }
    },
    serversCacheCleared(state) {
      state.byWorkspace = {};
    },
  },
});

export const { serversCached, serversCacheCleared } = serversCacheSlice.actions;
export const serversCacheReducer = serversCacheSlice.reducer;

/** The workspace's cached list if it was saved less than 5 minutes before `now`, else null. */
export function selectFreshCachedServers(
  state: { serversCache: ServersCacheState },
  workspaceId: string | null,
  now: number,
): ServerDto[] | null {
  if (!workspaceId) return null;
  const entry = state.serversCache.byWorkspace[workspaceId];
  if (!entry || now - entry.savedAt >= SERVERS_CACHE_TTL_MS || now < entry.savedAt) return null;
  return entry.servers;
}

// Every fresh list, and every live patch to one, is saved.
startAppListening({
  matcher: serversApi.endpoints.getServers.matchFulfilled,
  effect: (action, api) => {
    api.dispatch(serversCached({ workspaceId: action.meta.arg.originalArgs, servers: action.payload, savedAt: Date.now() }));
  },
});
startAppListening({
  predicate: (action) => action.type === `${serversApi.reducerPath}/queries/queryResultPatched`,
  effect: (action, api) => {
    const { queryCacheKey } = (action as unknown as PayloadAction<{ queryCacheKey: string }>).payload;
    const entry = api.getState().api.queries[queryCacheKey] as { endpointName?: string; originalArgs?: unknown; data?: unknown } | undefined;
    if (entry?.endpointName !== 'getServers' || !entry.data || typeof entry.originalArgs !== 'string') return;
    api.dispatch(serversCached({ workspaceId: entry.originalArgs, servers: entry.data as ServerDto[], savedAt: Date.now() }));
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
  effect: (_action, api) => writeStored(api.getState().serversCache),
});
