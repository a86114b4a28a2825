import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateDeploymentConfigBody,
  DeploymentConfigDto,
  DeploymentConfigList,
  DeploymentConfigListQuery,
  UpdateDeploymentConfigBody,
} from '../../../contract/deployments';
import { Paths } from '../../../contract/routes';
import { requireWorkspaceRole } from '../../auth/workspaceAccess';
import { errorResponses } from '../../http/errorResponses';
import { notFound } from '../../http/errors';
import { publicBase } from '../servers/routes';
import { deleteServer } from '../../data/servers/store';
import { configFor } from './access';
import { assertConfigAllowed } from '../../deployments/configRules';
import {
  deleteConfig,
  insertConfig,
  listConfigs,
  updateConfig,
  type ConfigFields,
} from '../../data/deployments/configStore';
import { latestDeployments } from '../../data/deployments/deploymentStore';
import { toDeploymentConfigDto, type DeploymentConfigRow } from '../../data/deployments/mapper';
import { resolveKeyReferences } from '../../deployments/programEnvironment';
import { assertCatalogAdmits } from './catalogAdmission';

// Deployment configs (SPEC §7): created at /deployments/configs with workspace_id in the body,
// read and changed at /deployment-configs/{id}. Members read; owners and admins manage.
const ConfigParams = z.object({ id: z.string() });

export const deploymentConfigRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['deployments'];

  async function dto(
    request: Parameters<typeof publicBase>[0],
    row: DeploymentConfigRow,
  ): Promise<DeploymentConfigDto> {
    const latest = (await latestDeployments(app.db, [row.id])).get(row.id);
    return toDeploymentConfigDto(row, publicBase(request), latest ? app.deployments.toDto(latest) : null);
  }

  async function assertAllowed(
    workspaceId: string,
    fields: Omit<
      ConfigFields,
      'name' | 'description' | 'restartPolicy' | 'maxRestarts' | 'startTimeoutMs' | 'sessionMode'
    >,
  ): Promise<void> {
    assertConfigAllowed(fields, app.config.deploymentCommands, app.deployments.runner.hostTools);
    await assertCatalogAdmits(app, fields);
    await resolveKeyReferences(app.db, workspaceId, fields.env, app.config.secret);
  }

  app.post(
    Paths.deploymentConfigCreate,
    {
      schema: {
        tags,
        summary: 'Create a deployment config (a stdio MCP program Toolscope can run)',
        body: CreateDeploymentConfigBody,
        response: { 201: DeploymentConfigDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { workspace_id: workspaceId, ...fields } = request.body;
      await requireWorkspaceRole(request, workspaceId, 'admin');
      await assertAllowed(workspaceId, fields);
      const row = await insertConfig(app.db, workspaceId, fields);
      return reply.status(201).send(await dto(request, row));
    },
  );

  app.get(
    Paths.deploymentConfigs,
    {
      schema: {
        tags,
        summary: "A workspace's deployment configs",
        querystring: DeploymentConfigListQuery,
        response: { 200: DeploymentConfigList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const workspaceId = request.query.workspace_id;
      await requireWorkspaceRole(request, workspaceId, 'member');
      const rows = await listConfigs(app.db, workspaceId);
      const latest = await latestDeployments(
        app.db,
        rows.map((r) => r.id),
      );
      const base = publicBase(request);
      return rows.map((row) => {
        const deployment = latest.get(row.id);
        return toDeploymentConfigDto(row, base, deployment ? app.deployments.toDto(deployment) : null);
      });
    },
  );

  app.get(
    Paths.deploymentConfig(':id'),
    {
      schema: {
        tags,
        summary: 'One deployment config',
        params: ConfigParams,
        response: { 200: DeploymentConfigDto, ...errorResponses(401, 404) },
      },
    },
    async (request) => dto(request, await configFor(request, request.params.id, 'member')),
  );

  app.put(
    Paths.deploymentConfig(':id'),
    {
      schema: {
        tags,
        summary: 'Change a deployment config (applies at the next deploy)',
        params: ConfigParams,
        body: UpdateDeploymentConfigBody,
        response: { 200: DeploymentConfigDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const before = await configFor(request, request.params.id, 'admin');
      const body = request.body;
      await assertAllowed(before.workspace_id, {
        command: body.command ?? before.command,
        args: body.args ?? before.args,
        env: body.env ?? before.env,
        cwd: body.cwd ?? before.cwd,
        limits: body.limits ?? before.limits,
        isolation: body.isolation ?? before.isolation,
      });
      const row = await updateConfig(app.db, before.id, body);
      // Deleted between the read above and this update.
      if (!row) throw notFound('Deployment config not found');
      return dto(request, row);
    },
  );

  app.delete(
    Paths.deploymentConfig(':id'),
    {
      schema: {
        tags,
        summary: 'Delete a deployment config: its deployments stop and its tool server is removed',
        params: ConfigParams,
        response: { 204: z.void(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const config = await configFor(request, request.params.id, 'admin');
      await app.deployments.forgetConfig(config);
      if (config.server_id) {
        const server = await deleteServer(app.db, config.workspace_id, config.server_id);
        if (server) {
          app.upstreams.forget(server.proxy_key);
          app.recorder.forgetServer(server.id);
        }
      }
      await deleteConfig(app.db, config.id);
      return reply.status(204).send();
    },
  );
  return Promise.resolve();
};
