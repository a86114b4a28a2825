import type {
  AnalyticsCostsResult,
  AnalyticsOverviewResult,
  AnalyticsQuery,
  AnalyticsToolsResult,
  PerformanceSeriesResult,
  PerformanceSummaryResult,
  UsageDailyResult,
} from '../../contract/analytics';
import type { PricingSettings, UpdatePricingBody } from '../../contract/pricing';
import { Paths } from '../../contract/routes';
import { apiSlice } from './apiSlice';

// The five analytics calls of SPEC §7 and the workspace's prices. Shared by the analytics and the
// costs features (both read the same answers). Every query provides 'Analytics': the live stream
// invalidates it, grouped to at most one refetch a second, when traffic is recorded
// (features/live/liveMessageEffects.ts), so the numbers move without polling.

export type AnalyticsArgs = { workspaceId: string } & AnalyticsQuery;

/** Drops empty values so the query string holds only what the user chose. */
function params(query: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') out[key] = String(value);
  return out;
}

const tags = [{ type: 'Analytics' as const }];

export const analyticsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getTrafficOverview: build.query<AnalyticsOverviewResult, AnalyticsArgs>({
      query: ({ workspaceId, ...query }) => ({ url: Paths.analytics(workspaceId, 'overview'), params: params(query) }),
      providesTags: tags,
    }),
    getTrafficCosts: build.query<AnalyticsCostsResult, AnalyticsArgs>({
      query: ({ workspaceId, ...query }) => ({ url: Paths.analytics(workspaceId, 'costs'), params: params(query) }),
      providesTags: tags,
    }),
    getPerformanceSummary: build.query<PerformanceSummaryResult, AnalyticsArgs>({
      query: ({ workspaceId, ...query }) => ({
        url: Paths.analytics(workspaceId, 'performance'),
        params: params({ ...query, format: 'summary' }),
      }),
      providesTags: tags,
    }),
    getPerformanceSeries: build.query<PerformanceSeriesResult, AnalyticsArgs>({
      query: ({ workspaceId, ...query }) => ({
        url: Paths.analytics(workspaceId, 'performance'),
        params: params(query),
      }),
      providesTags: tags,
    }),
    getUsageDaily: build.query<UsageDailyResult, AnalyticsArgs>({
      query: ({ workspaceId, ...query }) => ({
        url: Paths.analytics(workspaceId, 'usage/daily'),
        params: params(query),
      }),
      providesTags: tags,
    }),
    getToolAnalytics: build.query<AnalyticsToolsResult, AnalyticsArgs>({
      query: ({ workspaceId, ...query }) => ({ url: Paths.analytics(workspaceId, 'tools'), params: params(query) }),
      providesTags: tags,
    }),
    getPricing: build.query<PricingSettings, string>({
      query: (workspaceId) => ({ url: Paths.analyticsPricing(workspaceId) }),
      providesTags: tags,
    }),
    updatePricing: build.mutation<PricingSettings, { workspaceId: string; body: UpdatePricingBody }>({
      query: ({ workspaceId, body }) => ({ url: Paths.analyticsPricing(workspaceId), method: 'PUT', body }),
      invalidatesTags: tags,
    }),
  }),
});

export const {
  useGetTrafficOverviewQuery,
  useGetTrafficCostsQuery,
  useGetPerformanceSummaryQuery,
  useGetPerformanceSeriesQuery,
  useGetUsageDailyQuery,
  useGetToolAnalyticsQuery,
  useGetPricingQuery,
  useUpdatePricingMutation,
} = analyticsApi;
