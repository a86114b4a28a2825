import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DataExportQuery, exportFilename } from '../../../contract/dataExport';
import { SessionText } from '../../../contract/sessions';
import { conflict, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { auditRequest } from '../audit/store';
import { exportLines } from './workspaceExport';

// The workspace's data leaving Toolscope (docs/api.md "Export", docs/operations.md "Deleting data"):
// GET …/export streams sessions (messages and payloads in the replay's format) and the audit log
// as JSON Lines; DELETE …/sessions/{id} deletes one session with its messages, calls and payloads.
// Both are for owners and admins (the audit log is theirs only) and both are audited.

const SessionParams = z.object({ workspaceId: z.string(), sessionId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const workspaceIdOf = (params: unknown) => (params as { workspaceId: string }).workspaceId;

export const sessionDataRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/export',
    {
      config: { minRole: 'admin' },
      schema: {
        tags: ['sessions'],
        summary:
          'The workspace’s sessions (with messages, tool calls and payloads, as the replay shows them) and audit log for a range, as streamed JSON Lines',
        querystring: DataExportQuery,
      },
    },
    async (request, reply) => {
      const workspaceId = workspaceIdOf(request.params);
      const { from, to, include } = request.query;
      const now = new Date();
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'data.exported',
        target: include.join(', '),
        details: { from: from ?? null, to: to ?? null },
      });
      const lines = exportLines(app.db, { workspaceId, from, to, parts: include }, now);
      const body = Readable.from(
        (async function* () {
          for await (const line of lines) yield `${JSON.stringify(line)}\n`;
        })(),
      );
      reply.header('Content-Disposition', `attachment; filename="${exportFilename(now)}"`);
      reply.header('Cache-Control', 'no-store');
      return reply.type('application/x-ndjson; charset=utf-8').send(body);
    },
  );

  app.delete(
    '/sessions/:sessionId',
    {
      config: { minRole: 'admin', roleRefusal: SessionText.onlyManagersDelete },
      schema: {
        tags: ['sessions'],
        summary: 'Delete one ended session with its messages, tool calls and payloads (owners and admins)',
        params: SessionParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { workspaceId, sessionId } = request.params;
      if (!UUID.test(sessionId)) throw notFound('Session not found');
      const deleted = await app.db.transaction(async (tx) => {
        const rows = await tx.query<{ status: string; client_name: string | null; started_at: string }>(
          'select status, client_name, started_at from sessions where workspace_id = $1 and id = $2 for update',
          [workspaceId, sessionId],
        );
        if (!rows[0]) throw notFound('Session not found');
        // The recorder still writes an active session's messages: deleting it now would race them.
        if (rows[0].status === 'active') throw conflict(SessionText.stillActive);
        await tx.query('delete from tool_calls where workspace_id = $1 and session_id = $2', [workspaceId, sessionId]);
        await tx.query('delete from messages where workspace_id = $1 and session_id = $2', [workspaceId, sessionId]);
        await tx.query('delete from sessions where workspace_id = $1 and id = $2', [workspaceId, sessionId]);
        return rows[0];
      });
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'session.deleted',
        target: sessionId,
        details: { client: deleted.client_name, startedAt: new Date(deleted.started_at).toISOString() },
      });
      // Its journal records go once the rows around them are committed (they are already in the database).
      app.recorder.sealJournal();
      return reply.status(204).send(null);
    },
  );
  return Promise.resolve();
};
