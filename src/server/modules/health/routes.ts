import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  HealthResult,
  ServiceHealth,
  ServiceNameParams,
  ServicesHealthResult,
  SystemHealthResult,
} from '../../../contract/health';
import { Paths } from '../../../contract/routes';
import { verifyAccessToken } from '../../auth/accessToken';
import { bearerToken } from '../../auth/guards';
import { notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import {
  apiCheck,
  canServe,
  databaseCheck,
  migrationsCheck,
  recorderCheck,
  uptimeSeconds,
  type ServiceCheck,
} from './checks';
import { recorderBacklog } from './recorderBacklog';

// Unauthenticated health: /api/health for load balancers — 200 while this instance can serve, even
// with the database away and recording behind (checks.ts canServe; 503 only when it cannot, so a
// broken instance leaves the pool but an outage does not empty it) — and per-service detail for
// operators and the SPA, /system/health saying how far behind recording is and since when. The runtime's
// version and memory in /system/health are shown to signed-in callers only.
export const healthRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const startedAt = new Date();
  const checks = new Map<string, ServiceCheck>([
    ['api', apiCheck(app.config.version, startedAt)],
    ['database', databaseCheck(app.db)],
    ['migrations', migrationsCheck(app.db)],
    // The proxy installs the recorder after the routes; read it when asked.
    [
      'recorder',
      recorderCheck(
        () => (app.hasDecorator('recorder') ? app.recorder.stats() : undefined),
        app.config.recorderQueueLimit,
      ),
    ],
  ]);
  const runAll = () => Promise.all([...checks.values()].map((check) => check()));
  const overall = (services: ServiceHealth[]) =>
    services.every((s) => s.status === 'healthy') ? 'healthy' : 'unhealthy';
  const schema = { tags: ['health'], security: [] as Record<string, string[]>[] };

  app.get(
    Paths.health,
    {
      schema: {
        ...schema,
        summary: 'Liveness and readiness probe',
        response: { 200: HealthResult, 503: HealthResult },
      },
    },
    async (_request, reply) => {
      const services = await runAll();
      const serving = canServe(services);
      return reply.status(serving ? 200 : 503).send({
        status: serving ? 'healthy' : 'unhealthy',
        version: app.config.version,
        uptimeSeconds: uptimeSeconds(startedAt, new Date()),
        checks: Object.fromEntries(services.map((s) => [s.name, s.status])),
      });
    },
  );

  app.get(
    Paths.servicesHealth,
    {
      schema: {
        ...schema,
        summary: 'Health of every service',
        response: { 200: ServicesHealthResult, 503: ServicesHealthResult },
      },
    },
    async (_request, reply) => {
      const services = await runAll();
      const status = overall(services);
      return reply.status(status === 'healthy' ? 200 : 503).send({ status, services });
    },
  );

  app.get(
    Paths.serviceHealth(':name'),
    {
      schema: {
        ...schema,
        summary: 'Health of one service (api, database, migrations, recorder)',
        params: ServiceNameParams,
        response: { 200: ServiceHealth, 503: ServiceHealth, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const check = checks.get(request.params.name);
      if (!check)
        throw notFound(`Unknown service '${request.params.name}'. Known services: ${[...checks.keys()].join(', ')}`);
      const result = await check();
      return reply.status(result.status === 'healthy' ? 200 : 503).send(result);
    },
  );

  app.get(
    Paths.systemHealth,
    // Security: none required; a bearer token, when given, adds the runtime and memory.
    {
      schema: {
        ...schema,
        security: [{}, { bearer: [] }],
        summary: 'System overview: version, uptime, database (and, signed in: runtime, memory)',
        response: { 200: SystemHealthResult, 503: SystemHealthResult },
      },
    },
    async (request, reply) => {
      const services = await runAll();
      const status = overall(services);
      const migrations = services.find((s) => s.name === 'migrations');
      const token = bearerToken(request);
      const signedIn = token !== undefined && verifyAccessToken(token, app.config.secret) !== null;
      const memory = signedIn ? process.memoryUsage() : undefined;
      return reply.status(status === 'healthy' ? 200 : 503).send({
        status,
        version: app.config.version,
        uptimeSeconds: uptimeSeconds(startedAt, new Date()),
        startedAt: startedAt.toISOString(),
        ...(signedIn ? { nodeVersion: process.version } : {}),
        database: {
          engine: app.db.engine,
          reachable: services.find((s) => s.name === 'database')?.status === 'healthy',
          pendingMigrations: (migrations?.details?.pending as string[] | undefined) ?? [],
        },
        ...(memory ? { memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed } } : {}),
        serving: canServe(services),
        recorder: recorderBacklog(app.hasDecorator('recorder') ? app.recorder.stats() : undefined),
        services,
      });
    },
  );
  return Promise.resolve();
};
