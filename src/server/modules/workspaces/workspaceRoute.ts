import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UpdateWorkspaceBody, WorkspaceDto, WorkspaceParams } from '../../../contract/workspaces';
import { forbidden, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { findMemberWorkspace, setRequirePlatformKey } from './store';

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

  // Owners and admins change workspace settings. The require-platform-key switch applies at the
  // proxy of every instance through the access channel (docs/access.md).
  app.put(
    '/',
    {
      config: { minRole: 'admin' },
      schema: { tags: ['workspaces'], summary: 'Change workspace settings', params: WorkspaceParams, body: UpdateWorkspaceBody, response: { 200: WorkspaceDto, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => {
      const { workspaceId } = request.params;
      if (request.workspaceRole === 'member') throw forbidden('Only owners and admins can change workspace settings');
      if (request.body.requirePlatformKey !== undefined) {
        await setRequirePlatformKey(app.db, workspaceId, request.body.requirePlatformKey);
        await app.agentAccess.requirementChanged(workspaceId);
      }
      const workspace = await findMemberWorkspace(app.db, request.userId, workspaceId);
      if (!workspace) throw notFound('Workspace not found');
      return workspace;
    },
  );
};
