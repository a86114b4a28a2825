import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UpdateWorkspaceBody, WorkspaceDto, WorkspaceParams, WorkspaceText } from '../../../contract/workspaces';
import { forbidden, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { deleteWorkspaceData } from './workspaceDeletion';
import { findMemberWorkspace, setRequirePlatformKey, updateWorkspace } from './store';

// /api/v1/workspaces/:workspaceId, registered in workspaceRoutes: the prefix and the membership
// guard come from app.ts, so a non-member gets the guard's 404. Owners and admins edit; only an
// owner deletes, and never the personal workspace (docs/settings.md).
export const workspaceRoute: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspaces'];
  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'One workspace the user belongs to',
        params: WorkspaceParams,
        response: { 200: WorkspaceDto, ...errorResponses(401, 404) },
      },
    },
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
      config: { minRole: 'admin', roleRefusal: WorkspaceText.onlyManagersEdit },
      schema: {
        tags,
        summary: 'Change workspace settings: name, description, require a platform key (owners and admins)',
        params: WorkspaceParams,
        body: UpdateWorkspaceBody,
        response: { 200: WorkspaceDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      const { requirePlatformKey, ...text } = request.body;
      if (requirePlatformKey !== undefined) {
        await setRequirePlatformKey(app.db, workspaceId, requirePlatformKey);
        await app.agentAccess.requirementChanged(workspaceId);
      }
      const workspace = await updateWorkspace(app.db, request.userId, workspaceId, text);
      if (!workspace) throw notFound('Workspace not found');
      return workspace;
    },
  );

  app.delete(
    '/',
    {
      config: { minRole: 'owner', roleRefusal: WorkspaceText.onlyOwnerDeletes },
      schema: {
        tags,
        summary:
          'Delete the workspace with all its data: servers, secrets, sessions, messages, payloads, rollups, keys, journal records (owner only; not the personal one)',
        params: WorkspaceParams,
      },
    },
    async (request, reply) => {
      await deleteWorkspaceData(app, request.params.workspaceId, (workspace) => {
        if (workspace.workspace_type === 'personal') throw forbidden(WorkspaceText.personalCannotBeDeleted);
      });
      return reply.status(204).send();
    },
  );
  return Promise.resolve();
};
