import type { DashboardOverview } from '../../../contract/dashboard';
import { Paths } from '../../../contract/routes';
import { apiSlice } from '../../api/apiSlice';

export const dashboardApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getDashboardOverview: build.query<DashboardOverview, { workspaceId: string; since: string }>({
      query: ({ workspaceId, since }) => ({ url: Paths.dashboardOverview(workspaceId), params: { since } }),
      // The live stream invalidates 'Analytics' when traffic or a server's status changes.
      providesTags: (_result, _error, { workspaceId }) => [{ type: 'Analytics', id: `overview-${workspaceId}` }],
    }),
  }),
});

export const { useGetDashboardOverviewQuery } = dashboardApi;

/** The viewer's local midnight: "today" on the dashboard is the user's day, not UTC's. */
export function startOfLocalDay(now: Date = new Date()): string {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return midnight.toISOString();
}
