import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ToolCallsLive, ToolCallsLiveQuery } from '../../../contract/activity';
import { DEFAULT_INTERVAL, TimeSeries, TimeSeriesQuery } from '../../../contract/timeSeries';
import { DashboardOverview, DashboardOverviewQuery } from '../../../contract/dashboard';
import { notFound } from '../../http/errors';
import { findSession } from '../sessions/sessionStore';
import { latestToolCalls } from './toolCallStore';
import { toolCallTimeSeries } from './timeSeriesStore';
import { workspaceOverview } from './overviewStore';

// GET …/workspaces/{workspaceId}/tool-calls/live, /tool-calls/time-series (SPEC §7 Tool calls)
// and /dashboard/overview (the dashboard's numbers; /analytics/* is the analytics module's). Mounted behind the workspace guard.

export const toolCallRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/tool-calls/live',
    {
      schema: {
        tags: ['tool calls'],
        summary: 'The newest tool calls, of the workspace or of one session',
        querystring: ToolCallsLiveQuery,
        response: { 200: ToolCallsLive },
      },
    },
    async (request) => {
      const workspaceId = workspaceIdOf(request.params);
      const sessionId = request.query.session_id;
      if (sessionId && !(await findSession(app.db, workspaceId, sessionId))) throw notFound('Session not found');
      return { toolCalls: await latestToolCalls(app.db, workspaceId, request.query.limit, sessionId) };
    },
  );

  app.get(
    '/tool-calls/time-series',
    {
      schema: {
        tags: ['tool calls'],
        summary: 'Calls, errors, latency and tokens per interval over a period',
        querystring: TimeSeriesQuery,
        response: { 200: TimeSeries },
      },
    },
    async (request) => {
      const { period, serverId } = request.query;
      const interval = request.query.interval ?? DEFAULT_INTERVAL[period];
      return toolCallTimeSeries(app.db, workspaceIdOf(request.params), { period, interval, serverId }, new Date());
    },
  );

  app.get(
    '/dashboard/overview',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Servers, sessions and calls today, error rate, p95 latency, latest activity',
        querystring: DashboardOverviewQuery,
        response: { 200: DashboardOverview },
      },
    },
    async (request) => {
      const since = request.query.since ? new Date(request.query.since) : startOfUtcDay(new Date());
      return workspaceOverview(app.db, workspaceIdOf(request.params), since);
    },
  );
  return Promise.resolve();
};

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function workspaceIdOf(params: unknown): string {
  return (params as { workspaceId: string }).workspaceId;
}
