import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DeploymentDto,
  DeploymentList,
  DeploymentLogsQuery,
  DeploymentLogsResult,
} from '../../../contract/deployments';
import { Paths } from '../../../contract/routes';
import { conflict, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { assertDeploymentsEnabled, configFor, deploymentFor, readableDeploymentFor } from './access';
import { assertCatalogAdmits } from './catalogAdmission';
import { findDeployment, listDeploymentsOfConfig } from '../../data/deployments/deploymentStore';
import { auditRequest } from '../audit/store';
import { findConfig } from '../../data/deployments/configStore';

// Deployments (SPEC §7): deploy a config, list its deployments, read one's status and logs, stop
// it. Members read; owners and admins deploy, restart and stop.
const IdParams = z.object({ id: z.string() });

export const deploymentRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['deployments'];
  // Catalog mode's rules apply at every deploy and restore, whoever asks (routes, marketplace, leases).
  // (The deployments plugin registers after the routes: the rule is handed over once the app is ready.)
  app.addHook('onReady', (done) => {
    app.deployments.admission = (config) => assertCatalogAdmits(app, config);
    done();
  });

  const current = async (id: string) => {
    const row = await findDeployment(app.db, id);
    if (!row) throw notFound('Deployment not found');
    return app.deployments.toDto(row);
  };

  app.post(
    Paths.deploymentConfigDeploy(':id'),
    {
      schema: {
        tags,
        summary:
          'Deploy a config: start its program and register it as a tool server (replaces a running deployment of it)',
        params: IdParams,
        response: { 201: DeploymentDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const config = await configFor(request, request.params.id, 'admin');
      assertDeploymentsEnabled(app);
      const row = await app.deployments.deploy(config);
      await auditRequest(app.db, request, {
        workspaceId: config.workspace_id,
        action: 'deployment.started',
        target: config.name,
        details: { deploymentId: row.id, configId: config.id },
      });
      return reply.status(201).send(await current(row.id));
    },
  );

  app.get(
    Paths.deploymentConfigDeployments(':id'),
    {
      schema: {
        tags,
        summary: "A config's deployments, newest first",
        params: IdParams,
        response: { 200: DeploymentList, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const config = await configFor(request, request.params.id, 'member');
      return (await listDeploymentsOfConfig(app.db, config.id)).map((row) => app.deployments.toDto(row));
    },
  );

  for (const path of [Paths.deployment(':id'), Paths.deploymentStatus(':id')]) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary:
            'Status of a deployment: pid, started/stopped times, restarts, last exit, memory, last stderr lines (owners and admins only when its program is given workspace keys)',
          params: IdParams,
          response: { 200: DeploymentDto, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => app.deployments.toDto(await readableDeploymentFor(request, request.params.id)),
    );
  }

  app.get(
    Paths.deploymentLogs(':id'),
    {
      schema: {
        tags,
        summary:
          'Lines the program wrote (stderr, stray stdout) and supervisor notes; ?since=<ISO time>, ?before=<seq> for earlier lines',
        params: IdParams,
        querystring: DeploymentLogsQuery,
        response: { 200: DeploymentLogsResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const row = await readableDeploymentFor(request, request.params.id);
      const { since, before, limit } = request.query;
      return app.deployments.logs(row.id, {
        sinceMs: since === undefined ? undefined : Date.parse(since),
        beforeSeq: before,
        limit,
      });
    },
  );

  app.post(
    Paths.deploymentRestart(':id'),
    {
      schema: {
        tags,
        summary: 'Restart a running deployment',
        params: IdParams,
        response: { 200: DeploymentDto, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const row = await deploymentFor(request, request.params.id, 'admin');
      assertDeploymentsEnabled(app);
      if (!(await app.deployments.restart(row)))
        throw conflict('This deployment is not running here; deploy the config again');
      return current(row.id);
    },
  );

  app.delete(
    Paths.deployment(':id'),
    {
      schema: {
        tags,
        summary: 'Stop a deployment: stdin closed, SIGTERM to its process group, SIGKILL after the grace period',
        params: IdParams,
        response: { 200: DeploymentDto, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const row = await deploymentFor(request, request.params.id, 'admin');
      await app.deployments.stop(row);
      const config = await findConfig(app.db, row.config_id);
      await auditRequest(app.db, request, {
        workspaceId: row.workspace_id,
        action: 'deployment.stopped',
        target: config?.name ?? row.config_id,
        details: { deploymentId: row.id, configId: row.config_id },
      });
      return current(row.id);
    },
  );
  return Promise.resolve();
};
