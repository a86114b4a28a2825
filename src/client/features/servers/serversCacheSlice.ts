import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { SERVERS_CACHE_TTL_MS } from '../../../contract/constants';
import type { ServerDto } from '../../../contract/servers';

// SPEC §4/§9 servers cache: each workspace's list is kept in session storage for 5 minutes, so
// the servers page (and a reload within the tab) shows the last list at once while it refreshes.
// Session storage keeps it to this tab and drops it when the tab closes.
export const SERVERS_CACHE_STORAGE_KEY = 'toolscope.servers_cache';

export interface CachedServers {
  servers: ServerDto[];
  savedAt: number;
}

export interface ServersCacheState {
  byWorkspace: Partial<Record<string, CachedServers>>;
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

export function writeStoredServersCache(state: ServersCacheState): void {
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
      state.byWorkspace = Object.fromEntries(
        Object.entries(state.byWorkspace).filter(
          ([, entry]) => entry !== undefined && savedAt - entry.savedAt < SERVERS_CACHE_TTL_MS,
        ),
      );
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
