import { createApi } from '@reduxjs/toolkit/query/react';
import { QUERY_CACHE_TIME_MS, QUERY_STALE_TIME_MS } from '../../contract/constants';
import { baseQueryWithReauth } from './baseQuery';
import { API_REDUCER_PATH, extractQueryCacheRehydration } from './queryCachePersistence';

/**
 * The one createApi of the app. Features add endpoints with `apiSlice.injectEndpoints` in their
 * own `<feature>Api.ts`. Unused data is kept 10 min; a mounted query refetches when its data is
 * older than 5 min (the stale time of SPEC §9).
 */
export const apiSlice = createApi({
  reducerPath: API_REDUCER_PATH,
  baseQuery: baseQueryWithReauth,
  tagTypes: [
    'Me',
    'Workspaces',
    'Workspace',
    'Limits',
    'Subscription',
    'Servers',
    'Server',
    'Schemas',
    'Sessions',
    'Session',
    'ToolCalls',
    'Activity',
    'Notifications',
    'UnreadCount',
    'Analytics',
    'Config',
    'Members',
    'PlatformKeys',
    'WorkspaceKeys',
    'Preferences',
    'SignIns',
    'Catalog',
    'NotificationSettings',
    'Deployments',
  ],
  keepUnusedDataFor: QUERY_CACHE_TIME_MS / 1000,
  refetchOnMountOrArgChange: QUERY_STALE_TIME_MS / 1000,
  // `any` as the RTK docs advise: the real type would reference the api's own state type.
  extractRehydrationInfo: (action, options): any => extractQueryCacheRehydration(action, options),
  endpoints: () => ({}),
});
