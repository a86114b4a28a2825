import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CreateWorkspaceBody, CreateWorkspaceResult, WorkspaceListResult } from '../../../contract/workspaces';
import { Paths } from '../../../contract/routes';
import { forbidden } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { checkWorkspaceCreation } from '../billing/planLimits';
import { insertWorkspace, listMemberWorkspaces } from './store';

// The caller's workspaces (mounted behind `authenticate`). Single-workspace routes live under
// /workspaces/:workspaceId and go through the membership guard (workspaceRoute.ts).
export const workspaceListRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspaces'];

  app.get(
    Paths.workspaces,
    {
      schema: {
        tags,
        summary: 'Workspaces the user belongs to',
        response: { 200: WorkspaceListResult, ...errorResponses(401) },
      },
    },
    async (request) => ({
      workspaces: await listMemberWorkspaces(app.db, request.userId),
    }),
  );

  app.post(
    Paths.workspaces,
    {
      schema: {
        tags,
        summary: 'Create a workspace owned by the user (within the plan’s workspace limit)',
        body: CreateWorkspaceBody,
        response: { 201: CreateWorkspaceResult, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { name, description, workspaceType } = request.body;
      const created = await app.db.transaction(async (tx) => {
        // The subscription row lock makes the limit check and the insert one step per account.
        const allowed = await checkWorkspaceCreation(tx, request.userId, workspaceType, { forUpdate: true });
        if (!allowed.canCreate)
          throw forbidden(allowed.error ?? 'Your plan does not allow another workspace.', 'plan_limit');
        return insertWorkspace(tx, { ownerId: request.userId, name, description, workspaceType });
      });
      return reply.status(201).send(created);
    },
  );
  return Promise.resolve();
};
