import { createApi } from '@reduxjs/toolkit/query/react';
import { QUERY_CACHE_TIME_MS, QUERY_STALE_TIME_MS } from '../../contract/constants';
import { baseQueryWithReauth } from './baseQuery';
import { API_REDUCER_PATH, extractQueryCacheRehydration } from './queryCachePersistence';

/**
 * An endpoint without argument (its hook is called with none), or an answer without content (a
 * 204): RTK Query spells both `void` as a type argument of `build.query` / `build.mutation`.
 * typescript-eslint's no-invalid-void-type has no option for type arguments of a call (its
 * `allowInGenericTypeArguments` covers type references only), so the idiom is named once here
 * (docs/architecture.md "House rules").
 */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- RTK Query's documented `void` for "no argument"
export type NoArg = void;
export type NoContent = NoArg;

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
    'Identities',
    'UpstreamOAuth',
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
    'RedactionSettings',
    'Deployments',
    'Retention',
  ],
  keepUnusedDataFor: QUERY_CACHE_TIME_MS / 1000,
  refetchOnMountOrArgChange: QUERY_STALE_TIME_MS / 1000,
  // `any` as the RTK docs advise: the real type would reference the api's own state type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the api's state type is not nameable inside its own createApi
  extractRehydrationInfo: (action, options): any => extractQueryCacheRehydration(action, options),
  endpoints: () => ({}),
});
