import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { carriesSecurityHeaders, securityHeaders } from './http/securityHeaders';
import { shutdownDrain } from './http/shutdownDrain';
import { installSafeJsonParser } from './http/safeJson';
import { fastifyTrustProxy, trustedPeer } from './http/trustedProxies';
import { bindLegacyKeyHosts } from './data/keys/legacyKeyHosts';
import { capConnectionsPerClient, httpServerOptions } from './http/connectionLimits';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/database';
import { EventBus } from './events/bus';
import { badRequest } from './http/errors';
import { answerError, beforeSend } from './http/answers';
import { RawRoutes } from './http/rawRoutes';
import { authenticate, requireWorkspace } from './auth/guards';
import { publicRoutes, userRoutes, workspaceRoutes } from './modules';
import { notificationsPlugin } from './notifications/notificationsPlugin';
import { integrationsPlugin } from './integrations/integrationsPlugin';
import { telemetryPlugin } from './telemetry/telemetryPlugin';
import { retentionPlugin } from './modules/retention/retentionPlugin';
import { prometheusPlugin } from './metrics/prometheusPlugin';
import { registerBackgroundServices } from './monitor/backgroundServices';
import { alertRulesPlugin } from './modules/alertRules/alertRulesPlugin';
import { API } from '../contract/routes';
import { createOutboundClient } from './net/outboundClient';
import { installProxy } from './proxy/plugin';
import type { PaymentProvider } from './modules/billing/paymentProvider';
import { deploymentsPlugin } from './deployments/deploymentsPlugin';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    bus: EventBus;
    paymentProvider: PaymentProvider | null;
    /** Every route registered, for the cross-workspace walker test and the docs. */
    routeList: RegisteredRoute[];
    /** Routes served below Fastify (the proxy's Streamable HTTP exchanges; http/rawRoutes.ts). */
    rawRoutes: RawRoutes;
  }
  interface FastifyContextConfig {
    /** Lets `authenticate` read ?token= (only the SSE live stream: EventSource sends no headers). */
    allowQueryToken?: boolean;
    /**
     * The lowest workspace role a route under /api/v1/workspaces/:workspaceId needs (owner > admin >
     * member). Declared on the route, enforced once by the workspace guard; absent means member.
     */
    minRole?: 'owner' | 'admin' | 'member';
    /** The 403 text when the caller's role is too low, where the route has a more specific one. */
    roleRefusal?: string;
  }
}

/** A route as the walker tests and the docs see it: its method, path and declared minimum role. */
export interface RegisteredRoute {
  method: string;
  url: string;
  minRole?: 'owner' | 'admin' | 'member';
  roleRefusal?: string;
}

export interface AppOptions {
  config: Config;
  db: Database;
  logger?: FastifyServerOptions['logger'];
  /** The card payment provider behind the checkout and portal routes; none → they answer 501. */
  paymentProvider?: PaymentProvider;
}

export type App = FastifyInstance;

/** Builds the whole application as one Fastify instance; main.ts listens, tests use inject(). */
export async function buildApp({ config, db, logger = false, paymentProvider }: AppOptions): Promise<App> {
  const rawRoutes = new RawRoutes();
  const app = Fastify({
    logger,
    bodyLimit: config.bodyLimitBytes,
    // X-Forwarded-* is believed only from the hops the operator names (http/trustedProxies.ts).
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Our own 503 while closing (below) so the body has the API's {message, code} shape.
    return503OnClosing: false,
    // A plugin's start (the recorder's threads, the monitors' first reads) is slow on a loaded
    // machine, not hung: Fastify's 10 s default failed a start at load 5 on 2 cores.
    pluginTimeout: 120_000,
    // Slow clients: headers and the whole request within limits (http/connectionLimits.ts).
    requestTimeout: config.requestTimeoutMs,
    http: httpServerOptions({
      headersTimeoutMs: config.headersTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      perClient: config.connectionsPerClient,
    }),
    // Node's server as Fastify would make it, asking the routes served below Fastify first.
    serverFactory: rawRoutes.serverFactory,
  }).withTypeProvider<ZodTypeProvider>();
  capConnectionsPerClient(app.server, config.connectionsPerClient, trustedPeer(config.trustProxy));

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('bus', new EventBus());
  let listeningPort: number[] | undefined;
  app.decorate(
    'outbound',
    createOutboundClient(config, {
      // Toolscope's own listener is never an upstream (docs/security.md); its port is known after listen().
      // Asked on every proxied call: the port is read once listening (a getsockname each time was 0.7 % of the proxy's CPU).
      ownPorts: () => {
        if (listeningPort === undefined) {
          const address = app.server.address();
          if (address && typeof address === 'object') listeningPort = [address.port];
        }
        return listeningPort ?? [config.port];
      },
    }),
  );
  app.decorate('paymentProvider', paymentProvider ?? null);
  app.decorate('routeList', [] as RegisteredRoute[]);
  app.decorate('rawRoutes', rawRoutes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const { minRole, roleRefusal } = route.config ?? {};
    for (const method of methods) {
      if (method !== 'HEAD')
        app.routeList.push({
          method,
          url: route.url,
          ...(minRole ? { minRole } : {}),
          ...(roleRefusal ? { roleRefusal } : {}),
        });
    }
  });

  // Graceful shutdown: once close() starts, new requests on kept-alive connections get a 503 and
  // every response asks the client to drop the connection, so in-flight requests finish and no
  // idle keep-alive socket holds the process open past the grace period.
  let closing = false;
  const drain = shutdownDrain(app.server);
  app.addHook('preClose', () => {
    closing = true;
    rawRoutes.closing = true;
    drain.start();
    return Promise.resolve();
  });
  // These run on every request, the proxy's included: callback hooks, not async ones, so no promise
  // is made per request for what is almost always nothing to do.
  const headers = securityHeaders(config);
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response, as helmet set them: they stay on error answers and sent files alike.
    if (carriesSecurityHeaders(request.url)) for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (closing) {
      reply.header('connection', 'close');
      void reply
        .status(503)
        .send({ message: 'Toolscope is shutting down; retry shortly', code: 'service_unavailable' });
      return;
    }
    // A NUL in a path or query value reaches PostgreSQL's text type as an error (500): the API refuses
    // it up front. The proxy's URLs are the agent's business and pass as they are.
    if (request.url.startsWith('/api') && /%00/i.test(request.url)) {
      done(badRequest('The URL must not contain the NUL character (%00)'));
      return;
    }
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    beforeSend(reply, closing);
    done(null, payload);
  });

  // Keys from before they carried hosts are bound to where they are used now (migration 027).
  app.addHook('onReady', async () => {
    await bindLegacyKeyHosts(db, config.secret).catch((err: unknown) =>
      app.log.error({ err }, 'binding workspace keys to their hosts failed'),
    );
  });

  app.setErrorHandler((error: FastifyError, request, reply) => answerError(error, request.log, reply));

  await app.register(notificationsPlugin);
  await app.register(integrationsPlugin);
  await app.register(alertRulesPlugin);
  await app.register(telemetryPlugin);
  await app.register(prometheusPlugin);
  await app.register(retentionPlugin);
  await registerBackgroundServices(app);
  await app.register(formbody);
  installSafeJsonParser(app);
  // Off by default; the sign-in routes opt in with config.rateLimit (auth/authRateLimits.ts).
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Toolscope API',
        version: config.version,
        description: 'REST API of Toolscope. The MCP proxy lives at /mcp/{proxyKey}.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  for (const plugin of publicRoutes) await app.register(plugin);
  await app.register(async (scope) => {
    scope.addHook('onRequest', authenticate);
    for (const plugin of userRoutes) await scope.register(plugin);
  });
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', authenticate);
      scope.addHook('onRequest', requireWorkspace);
      for (const plugin of workspaceRoutes) await scope.register(plugin);
    },
    { prefix: `${API}/workspaces/:workspaceId` },
  );

  await installProxy(app);
  await app.register(deploymentsPlugin);

  const clientDir = config.clientDir;
  const hasClient = clientDir !== undefined && fs.existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    // wildcard: files are looked up per request, not listed once at start (wildcard: false), so a
    // build made while this instance runs (scripts/build-client.mjs keeps earlier hashed assets and
    // swaps index.html last) is served without a restart and the open pages keep their chunks.
    await app.register(fastifyStatic, { root: clientDir, wildcard: true, index: 'index.html', maxAge: 0 });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/api/') || url === '/api' || url.startsWith('/mcp/') || url === '/mcp';
    // A missing asset is a 404, never the SPA's HTML: a page asking for a chunk of a build that is
    // gone must see the import fail (and offer a reload), not parse HTML as JavaScript.
    const isAsset = url.startsWith('/assets/');
    if (!isApi && !isAsset && hasClient && (request.method === 'GET' || request.method === 'HEAD')) {
      // History fallback: client routes are the SPA's to resolve (including its not-found page).
      return reply.type('text/html').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ message: `Route ${request.method} ${url.split('?')[0]} not found`, code: 'not_found' });
  });

  return app;
}
