import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ExportSchedule, ExportText, UpdateExportScheduleBody } from '../../../contract/dataExport';
import { WorkspaceParams } from '../../../contract/workspaces';
import { badRequest, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import type { Queryable } from '../../db/database';

// /api/v1/workspaces/:workspaceId/export-schedule (docs/operations.md "Export"): whether the
// workspace's data is exported every day to the operator's folder. Members see it; the owner
// switches it (the files hold every payload, so it is the owner's call, as deletion is).

async function readSchedule(db: Queryable, workspaceId: string, available: boolean): Promise<ExportSchedule | null> {
  const rows = await db.query<{ daily_export: boolean; through: string | null }>(
    'select daily_export, daily_export_through::text as through from workspaces where id = $1',
    [workspaceId],
  );
  return rows[0] ? { enabled: rows[0].daily_export, available, exportedThrough: rows[0].through } : null;
}

export const exportScheduleRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspaces'];
  const available = () => app.config.exportDir !== undefined;

  app.get(
    '/export-schedule',
    {
      schema: {
        tags,
        summary: 'Whether the workspace’s data is exported every day to the operator’s folder',
        params: WorkspaceParams,
        response: { 200: ExportSchedule, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const schedule = await readSchedule(app.db, request.params.workspaceId, available());
      if (!schedule) throw notFound('Workspace not found');
      return schedule;
    },
  );

  app.put(
    '/export-schedule',
    {
      config: { minRole: 'owner', roleRefusal: ExportText.onlyOwnerSchedules },
      schema: {
        tags,
        summary: 'Export the workspace’s data every day (yesterday’s, as JSON Lines) to the operator’s folder (owner)',
        params: WorkspaceParams,
        body: UpdateExportScheduleBody,
        response: { 200: ExportSchedule, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      if (request.body.enabled && !available()) throw badRequest(ExportText.noExportFolder);
      await app.db.query('update workspaces set daily_export = $2, updated_at = now() where id = $1', [
        workspaceId,
        request.body.enabled,
      ]);
      const schedule = await readSchedule(app.db, workspaceId, available());
      if (!schedule) throw notFound('Workspace not found');
      return schedule;
    },
  );
  return Promise.resolve();
};
