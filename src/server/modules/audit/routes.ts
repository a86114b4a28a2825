import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditListResult, AuditQuery } from '../../../contract/audit';
import { WorkspaceParams } from '../../../contract/workspaces';
import { errorResponses } from '../../http/errorResponses';
import { listAuditEvents } from './store';

// GET /api/v1/workspaces/:workspaceId/audit — the workspace's security events, newest first.
export const auditRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/audit',
    {
      config: { minRole: 'admin' },
      schema: {
        tags: ['audit'],
        summary: 'Security events of the workspace, newest first (owners and admins)',
        params: WorkspaceParams,
        querystring: AuditQuery,
        response: { 200: AuditListResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      events: await listAuditEvents(app.db, request.params.workspaceId, request.query.limit, request.query.before),
    }),
  );
  return Promise.resolve();
};
