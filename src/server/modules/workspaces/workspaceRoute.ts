import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WorkspaceDto, WorkspaceParams } from '../../../contract/workspaces';
import { notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { findMemberWorkspace } from './store';

// GET /api/v1/workspaces/:workspaceId, registered in workspaceRoutes: the prefix and the
// membership guard come from app.ts, so a non-member gets the guard's 404.
export const workspaceRoute: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/',
    { schema: { tags: ['workspaces'], summary: 'One workspace the user belongs to', params: WorkspaceParams, response: { 200: WorkspaceDto, ...errorResponses(401, 404) } } },
    async (request) => {
      const workspace = await findMemberWorkspace(app.db, request.userId, request.params.workspaceId);
      if (!workspace) throw notFound('Workspace not found');
      return workspace;
    },
  );
};
