import type { UnknownAction } from '@reduxjs/toolkit';
import { createTransform, REHYDRATE } from 'redux-persist';
import { QUERY_PERSIST_MAX_AGE_MS } from '../../contract/constants';

// SPEC §9: the query cache survives visits for at most 24 h. redux-persist stores a filtered
// copy of the `api` slice; RTK Query merges it back through `extractRehydrationInfo` (its
// documented hook). Only settled, fresh query results travel: never subscriptions (they belong
// to components that no longer exist), never in-flight or failed entries, never mutations.

export const PERSIST_KEY = 'toolscope';
export const API_REDUCER_PATH = 'api';

interface CachedQuery {
  status?: string;
  fulfilledTimeStamp?: number;
}
interface PersistedApiState {
  queries: Record<string, CachedQuery | undefined>;
  mutations: Record<string, never>;
  provided: { tags: Record<string, Record<string, string[]>>; keys: Record<string, unknown> };
}

function freshQueries(queries: Record<string, CachedQuery | undefined> | undefined, now: number) {
  const kept: Record<string, CachedQuery> = {};
  for (const [key, entry] of Object.entries(queries ?? {})) {
    if (
      entry?.status === 'fulfilled' &&
      typeof entry.fulfilledTimeStamp === 'number' &&
      now - entry.fulfilledTimeStamp < QUERY_PERSIST_MAX_AGE_MS
    ) {
      kept[key] = entry;
    }
  }
  return kept;
}

function providedFor(provided: Partial<PersistedApiState['provided']> | undefined, keep: Set<string>) {
  const tags: PersistedApiState['provided']['tags'] = {};
  for (const [type, byId] of Object.entries(provided?.tags ?? {})) {
    for (const [id, cacheKeys] of Object.entries(byId)) {
      const keptKeys = cacheKeys.filter((key) => keep.has(key));
      if (keptKeys.length) (tags[type] ??= {})[id] = keptKeys;
    }
  }
  const keys: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(provided?.keys ?? {})) if (keep.has(key)) keys[key] = value;
  return { tags, keys };
}

/** Keeps fulfilled queries younger than 24 h and the tags they provide; drops everything else. */
export function selectPersistableQueryCache(
  apiState: Partial<PersistedApiState> | undefined,
  now = Date.now(),
): PersistedApiState {
  const queries = freshQueries(apiState?.queries, now);
  return { queries, mutations: {}, provided: providedFor(apiState?.provided, new Set(Object.keys(queries))) };
}

/** Applied both when saving and when loading, so an entry older than 24 h is never restored. */
export const queryCacheTransform = createTransform<Partial<PersistedApiState>, PersistedApiState>(
  (apiState) => selectPersistableQueryCache(apiState),
  (stored) => selectPersistableQueryCache(stored),
  { whitelist: [API_REDUCER_PATH] },
);

/** For createApi: hands the stored `api` slice to RTK Query when redux-persist rehydrates. */
export function extractQueryCacheRehydration(action: UnknownAction, { reducerPath }: { reducerPath: string }): unknown {
  if (action.type !== REHYDRATE) return undefined;
  const rehydrate = action as UnknownAction & { key?: string; payload?: Record<string, unknown> };
  if (rehydrate.key !== PERSIST_KEY || !rehydrate.payload) return undefined;
  return rehydrate.payload[reducerPath];
}
