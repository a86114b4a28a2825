import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AnalyticsCostsResult,
  AnalyticsOverviewResult,
  AnalyticsQuery,
  AnalyticsToolsResult,
  PerformanceQuery,
  PerformanceSeriesResult,
  PerformanceSummaryResult,
  UsageDailyResult,
} from '../../../contract/analytics';
import { PricingSettings, UpdatePricingBody } from '../../../contract/pricing';
import { badRequest } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { readPreferences } from '../users/store';
import { analyticsContext } from './analyticsContext';
import { analyticsCosts } from './costsStore';
import { analyticsOverview } from './overviewStore';
import { performanceSeries, performanceSummary } from './performanceStore';
import { pricingSettings, savePricing } from './pricingStore';
import { analyticsTools } from './toolsStore';
import { usableTimeZone, usageDaily } from './usageStore';

// The five analytics calls of SPEC §7 and the workspace's prices (docs/api.md "Analytics"),
// mounted under /api/v1/workspaces/:workspaceId behind the membership guard. They read the
// traffic rollups only (docs/analytics.md): their cost follows the buckets of the range, not the calls.

const tags = ['analytics'];

export const analyticsRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const workspaceIdOf = (params: unknown) => (params as { workspaceId: string }).workspaceId;
  const responses = errorResponses(400, 401, 404);
  const cap = () => app.config.rawRetentionMaxDays;

  app.get(
    '/analytics/overview',
    {
      schema: {
        tags,
        summary: 'Totals of the range against the period before it, and calls, errors, p95 and cost over time',
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsOverviewResult, ...responses },
      },
    },
    async (request) =>
      analyticsOverview(
        await analyticsContext(app.db, workspaceIdOf(request.params), request.query, Date.now(), cap()),
      ),
  );

  app.get(
    '/analytics/costs',
    {
      schema: {
        tags,
        summary:
          'What the traffic cost: by day, server, tool, client, platform key and session; token split; context weight; prices',
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsCostsResult, ...responses },
      },
    },
    async (request) =>
      analyticsCosts(await analyticsContext(app.db, workspaceIdOf(request.params), request.query, Date.now(), cap())),
  );

  app.get(
    '/analytics/performance',
    {
      schema: {
        tags,
        summary: 'Latency percentiles and errors: per server and tool (format=summary) or per server over time',
        querystring: PerformanceQuery,
        response: { 200: PerformanceSummaryResult.or(PerformanceSeriesResult), ...responses },
      },
    },
    async (request) => {
      const { format, ...query } = request.query;
      const context = await analyticsContext(app.db, workspaceIdOf(request.params), query, Date.now(), cap());
      return format === 'summary' ? performanceSummary(context) : performanceSeries(context);
    },
  );

  app.get(
    '/analytics/usage/daily',
    {
      schema: {
        tags,
        summary: "Calls, errors, sessions, tokens and cost per day in the user's time zone, and the monthly quota",
        querystring: AnalyticsQuery,
        response: { 200: UsageDailyResult, ...responses },
      },
    },
    async (request) => {
      const preferences = await readPreferences(app.db, request.userId);
      const context = await analyticsContext(app.db, workspaceIdOf(request.params), request.query, Date.now(), cap());
      return usageDaily(context, usableTimeZone(preferences?.timezone));
    },
  );

  app.get(
    '/analytics/tools',
    {
      schema: {
        tags,
        summary: 'Every tool called in the range: calls, error rate, p50/p95, result tokens, last call',
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsToolsResult, ...responses },
      },
    },
    async (request) =>
      analyticsTools(await analyticsContext(app.db, workspaceIdOf(request.params), request.query, Date.now(), cap())),
  );

  app.get(
    '/analytics/pricing',
    {
      schema: {
        tags,
        summary: "The workspace's model, prices and per-call tool prices, with the dated default table",
        response: { 200: PricingSettings, ...errorResponses(401, 404) },
      },
    },
    async (request) => pricingSettings(app.db, workspaceIdOf(request.params)),
  );

  app.put(
    '/analytics/pricing',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Choose the model, override its prices, price tools per call (re-prices all history)',
        body: UpdatePricingBody,
        response: { 200: PricingSettings, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const workspaceId = workspaceIdOf(request.params);
      const { unknownServers } = await savePricing(app.db, workspaceId, request.body);
      if (unknownServers.length > 0)
        throw badRequest(`No such server in this workspace: ${unknownServers.join(', ')}`, {
          toolPrices: 'Unknown server',
        });
      return pricingSettings(app.db, workspaceId);
    },
  );
  return Promise.resolve();
};
