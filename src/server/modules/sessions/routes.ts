import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ReplayQuery,
  ReplayResult,
  SESSION_EXPORT_MAX,
  SessionDto,
  SessionExportQuery,
  SessionListQuery,
  SessionListResult,
} from '../../../contract/sessions';
import { ActivityStreamQuery, ActivityStreamResult } from '../../../contract/activity';
import { notFound } from '../../http/errors';
import { listActivity } from './activityStore';
import { readRetentionPolicy } from '../../data/retention/retentionPolicy';
import { rangeRetention } from '../../data/retention/rangeRetention';
import { exportFilename, sessionsCsv, sessionsJson } from './sessionExport';
import { listSessions, sessionsForExport } from './sessionList';
import { findSession, replaySession } from './sessionStore';

// GET …/workspaces/{workspaceId}/sessions, /sessions/export, /sessions/activity-stream, /sessions/{sessionId},
// /sessions/{sessionId}/replay (SPEC §7 Sessions). Mounted behind the workspace guard.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SessionParams = z.object({ workspaceId: z.string(), sessionId: z.string() });

export const sessionRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/sessions',
    {
      schema: {
        tags: ['sessions'],
        summary: 'Sessions of the workspace, filtered, sorted (newest first by default) and paged',
        querystring: SessionListQuery,
        response: { 200: SessionListResult },
      },
    },
    async (request) => {
      const workspaceId = workspaceIdOf(request.params);
      const [list, policy] = await Promise.all([
        listSessions(app.db, workspaceId, request.query),
        readRetentionPolicy(app.db, workspaceId, app.config.rawRetentionMaxDays),
      ]);
      if (!policy) return list;
      // A list without `from` reaches back to the beginning: past what is kept whenever anything expired.
      const fromMs = request.query.from ? Date.parse(request.query.from) : 0;
      const retention = rangeRetention({ fromMs, toMs: Date.now() }, policy.rawDays, Date.now());
      return { ...list, retention: { ...retention, reachesPastRollups: false } };
    },
  );

  app.get(
    '/sessions/export',
    {
      schema: {
        tags: ['sessions'],
        summary: `The filtered, sorted sessions list as a CSV or JSON download (at most ${SESSION_EXPORT_MAX.toLocaleString('en-US')} sessions; X-Total-Count says how many matched)`,
        querystring: SessionExportQuery,
      },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const { sessions, total } = await sessionsForExport(
        app.db,
        workspaceIdOf(request.params),
        filters,
        SESSION_EXPORT_MAX,
      );
      const now = new Date();
      reply.header('Content-Disposition', `attachment; filename="${exportFilename(format, now)}"`);
      reply.header('X-Total-Count', String(total));
      reply.header('Cache-Control', 'no-store');
      if (format === 'json')
        return reply.type('application/json; charset=utf-8').send(sessionsJson(sessions, total, now));
      return reply.type('text/csv; charset=utf-8').send(sessionsCsv(sessions));
    },
  );

  app.get(
    '/sessions/activity-stream',
    {
      schema: {
        tags: ['sessions'],
        summary: 'Latest tool calls and session starts/ends, newest first (the live feed’s polling fallback)',
        querystring: ActivityStreamQuery,
        response: { 200: ActivityStreamResult },
      },
    },
    async (request) => ({ events: await listActivity(app.db, workspaceIdOf(request.params), request.query) }),
  );

  app.get(
    '/sessions/:sessionId',
    { schema: { tags: ['sessions'], summary: 'One session', params: SessionParams, response: { 200: SessionDto } } },
    async (request) => loadSession(request.params.workspaceId, request.params.sessionId),
  );

  app.get(
    '/sessions/:sessionId/replay',
    {
      schema: {
        tags: ['sessions'],
        summary: 'The session’s messages in order, paged and windowed by time, with their tool calls',
        params: SessionParams,
        querystring: ReplayQuery,
        response: { 200: ReplayResult },
      },
    },
    async (request) =>
      replaySession(app.db, await loadSession(request.params.workspaceId, request.params.sessionId), request.query),
  );

  async function loadSession(workspaceId: string, sessionId: string): Promise<SessionDto> {
    const session = UUID.test(sessionId) ? await findSession(app.db, workspaceId, sessionId) : null;
    if (!session) throw notFound('Session not found');
    return session;
  }
  return Promise.resolve();
};

function workspaceIdOf(params: unknown): string {
  return (params as { workspaceId: string }).workspaceId;
}
