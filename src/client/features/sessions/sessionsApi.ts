import type {
  ReplayQuery,
  ReplayResult,
  SessionDto,
  SessionExportQuery,
  SessionListQuery,
  SessionListResult,
} from '../../../contract/sessions';
import type {
  ActivityStreamQuery,
  ActivityStreamResult,
  ToolCallsLive,
  ToolCallsLiveQuery,
} from '../../../contract/activity';
import type { TimeSeries, TimeSeriesQuery } from '../../../contract/timeSeries';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// The sessions and tool-calls endpoints of SPEC §7. Every argument carries the workspace id so a
// workspace switch is a new cache entry, never a stale one.
type InWorkspace<Q> = { workspaceId: string } & Q;

/** Drops empty values so the query string holds only what the user chose. */
function params(query: object): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') out[key] = value as string | number;
  }
  return out;
}

export const sessionsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getSessions: build.query<SessionListResult, InWorkspace<SessionListQuery>>({
      query: ({ workspaceId, ...query }) => ({ url: Paths.sessions(workspaceId), params: params(query) }),
      providesTags: (_result, _error, { workspaceId }) => [{ type: 'Sessions', id: workspaceId }],
    }),
    /** The filtered list as a file's text (CSV or JSON), for a download; never cached. */
    exportSessions: build.query<string, InWorkspace<SessionExportQuery>>({
      query: ({ workspaceId, ...query }) => ({
        url: Paths.sessionsExport(workspaceId),
        params: params(query),
        responseType: 'text',
      }),
      keepUnusedDataFor: 0,
    }),
    getSession: build.query<SessionDto, { workspaceId: string; sessionId: string }>({
      query: ({ workspaceId, sessionId }) => ({ url: Paths.session(workspaceId, sessionId) }),
      providesTags: (_result, _error, { sessionId }) => [{ type: 'Session', id: sessionId }],
    }),
    deleteSession: build.mutation<NoContent, { workspaceId: string; sessionId: string }>({
      query: ({ workspaceId, sessionId }) => ({ url: Paths.session(workspaceId, sessionId), method: 'DELETE' }),
      extraOptions: { maxAttempts: 1 },
      // Not the session's own tag: its page leaves, and a refetch would only find it gone.
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : ['Sessions', { type: 'Activity', id: workspaceId }],
    }),
    getSessionReplay: build.query<ReplayResult, InWorkspace<{ sessionId: string } & ReplayQuery>>({
      query: ({ workspaceId, sessionId, ...query }) => ({
        url: Paths.sessionReplay(workspaceId, sessionId),
        params: params(query),
      }),
      providesTags: (_result, _error, { sessionId }) => [{ type: 'Session', id: sessionId }],
    }),
    getActivityStream: build.query<ActivityStreamResult, InWorkspace<ActivityStreamQuery>>({
      query: ({ workspaceId, ...query }) => ({ url: Paths.activityStream(workspaceId), params: params(query) }),
      providesTags: (_result, _error, { workspaceId }) => [{ type: 'Activity', id: workspaceId }],
      // Each poll asks with a new `since`; the feed keeps the events, the cache need not, and
      // diffing a fresh page against the last (structural sharing) is wasted work here.
      keepUnusedDataFor: 0,
      structuralSharing: false,
    }),
    getLiveToolCalls: build.query<ToolCallsLive, InWorkspace<ToolCallsLiveQuery>>({
      query: ({ workspaceId, ...query }) => ({ url: Paths.toolCallsLive(workspaceId), params: params(query) }),
      providesTags: (_result, _error, { workspaceId }) => [{ type: 'ToolCalls', id: workspaceId }],
    }),
    getToolCallTimeSeries: build.query<TimeSeries, InWorkspace<TimeSeriesQuery>>({
      query: ({ workspaceId, ...query }) => ({ url: Paths.toolCallsTimeSeries(workspaceId), params: params(query) }),
      providesTags: (_result, _error, { workspaceId }) => [{ type: 'ToolCalls', id: `series-${workspaceId}` }],
    }),
  }),
});

export const {
  useGetSessionsQuery,
  useLazyExportSessionsQuery,
  useGetSessionQuery,
  useDeleteSessionMutation,
  useGetSessionReplayQuery,
  useGetActivityStreamQuery,
  useLazyGetActivityStreamQuery,
  useGetLiveToolCallsQuery,
  useGetToolCallTimeSeriesQuery,
} = sessionsApi;
