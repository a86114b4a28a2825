import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rootPlugin } from '../http/rootPlugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DEPLOYMENT_STATUSES } from '../../contract/deployments';
import { bearerToken } from '../auth/guards';

// GET /metrics in the Prometheus text format, for operators (docs/telemetry.md "Prometheus"). Off
// unless TOOLSCOPE_METRICS_TOKEN is set; scrapers send it as a bearer token. Labels are bounded:
// server ids (never proxy keys: they are credentials), HTTP methods and status codes.

const PROXY_PATH = /^\/mcp\/([^/?]+)/;

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A counter that mirrors a total kept elsewhere (the recorder's), moved forward on each scrape. */
function mirroredCounter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  read: () => Record<string, number>,
): void {
  const seen = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      for (const [label, value] of Object.entries(read())) {
        const delta = value - (seen.get(label) ?? 0);
        if (delta > 0) this.inc(labelNames.length ? { [labelNames[0]]: label } : {}, delta);
        seen.set(label, value);
      }
    },
  });
}

export const prometheusPlugin = rootPlugin(function prometheusPlugin(app: FastifyInstance): void {
  const token = app.config.metricsToken;
  if (!token) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'toolscope_' });

  const requests = new Counter({
    name: 'toolscope_proxy_requests_total',
    help: 'HTTP requests through the MCP proxy, by server, method and status',
    labelNames: ['server_id', 'method', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'toolscope_proxy_request_duration_seconds',
    help: 'Time to answer a proxy request (for GET, the life of the stream), by server and method',
    labelNames: ['server_id', 'method'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });

  // After the response: never on the agent's path. The server id comes from the proxy's own
  // cache of proxy keys; an unknown key is counted as "unknown" (bounded labels).
  const count = async (url: string, method: string, status: number, elapsedMs: number) => {
    const match = PROXY_PATH.exec(url);
    if (!match) return;
    const target = app.hasDecorator('upstreams') ? await app.upstreams.get(match[1]).catch(() => null) : null;
    const serverId = target?.serverId ?? 'unknown';
    requests.inc({ server_id: serverId, method, status: String(status) });
    durations.observe({ server_id: serverId, method }, elapsedMs / 1000);
  };
  app.addHook('onResponse', (request, reply) =>
    count(request.url, request.method, reply.statusCode, reply.elapsedTime),
  );
  // The proxy's exchanges served below Fastify (http/rawRoutes.ts) are counted as its routes are.
  app.rawRoutes.observe((req, res, elapsedMs) => {
    void count(req.url ?? '', req.method ?? '', res.statusCode, elapsedMs);
  });

  const recorder = () => (app.hasDecorator('recorder') ? app.recorder.stats() : undefined);
  new Gauge({
    name: 'toolscope_recorder_queued_rows',
    help: 'Rows waiting in the recorder queue',
    registers: [registry],
    collect() {
      this.set(recorder()?.queuedRows ?? 0);
    },
  });
  new Gauge({
    name: 'toolscope_recorder_active_sessions',
    help: 'MCP sessions the recorder holds open',
    registers: [registry],
    collect() {
      this.set(recorder()?.activeSessions ?? 0);
    },
  });
  new Gauge({
    name: 'toolscope_recorder_last_flush_seconds',
    help: 'Duration of the last recorder write',
    registers: [registry],
    collect() {
      this.set((recorder()?.lastFlushMs ?? 0) / 1000);
    },
  });
  mirroredCounter(
    registry,
    'toolscope_recorder_written_rows_total',
    'Rows the recorder wrote, by kind',
    ['kind'],
    (): Record<string, number> => {
      const s = recorder();
      return s ? { sessions: s.written.sessions, messages: s.written.messages, tool_calls: s.written.toolCalls } : {};
    },
  );
  mirroredCounter(
    registry,
    'toolscope_recorder_dropped_rows_total',
    'Rows dropped because the recorder queue was full, by kind',
    ['kind'],
    (): Record<string, number> => {
      const s = recorder();
      return s
        ? { messages: s.dropped.messages, tool_calls: s.dropped.toolCalls, lost_on_write_error: s.lostOnWriteError }
        : {};
    },
  );
  mirroredCounter(registry, 'toolscope_recorder_flushes_total', 'Recorder writes', [], () => ({
    all: recorder()?.flushes ?? 0,
  }));

  new Gauge({
    name: 'toolscope_database_pool_connections',
    help: 'PostgreSQL pool connections by state (absent on the embedded database)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = app.db.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'toolscope_live_stream_subscribers',
    help: 'Open live streams (dashboards) on this instance',
    registers: [registry],
    collect() {
      this.set(
        Math.max(0, app.bus.totalSubscribers() - (app.hasDecorator('telemetry') ? app.telemetry.subscriptionCount : 0)),
      );
    },
  });
  new Gauge({
    name: 'toolscope_telemetry_queued_spans',
    help: 'Spans waiting to be exported to OTLP collectors',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('telemetry') ? app.telemetry.queuedSpans : 0);
    },
  });
  new Gauge({
    name: 'toolscope_integration_deliveries_pending',
    help: 'Integration deliveries waiting to be sent or retried (all instances)',
    registers: [registry],
    async collect() {
      const rows = await app.db
        .query<{ n: string | number }>(`select count(*) as n from integration_deliveries where status = 'pending'`)
        .catch(() => [{ n: 0 }]);
      this.set(Number(rows.at(0)?.n ?? 0));
    },
  });

  // Deployments this instance runs (each runs on exactly one instance: the sum over instances is the whole).
  const deployments = () =>
    app.hasDecorator('deployments') && app.deployments.enabled ? app.deployments.stats() : undefined;
  new Gauge({
    name: 'toolscope_deployments',
    help: 'Deployments this instance runs, by status',
    labelNames: ['status'],
    registers: [registry],
    collect() {
      const stats = deployments();
      for (const status of DEPLOYMENT_STATUSES) this.set({ status }, stats?.byStatus[status] ?? 0);
    },
  });
  new Gauge({
    name: 'toolscope_deployment_memory_bytes',
    help: 'Resident memory of the deployed programs this instance runs',
    registers: [registry],
    collect() {
      this.set(deployments()?.memoryBytes ?? 0);
    },
  });
  new Gauge({
    name: 'toolscope_deployment_session_processes',
    help: 'Per-session processes of deployments this instance runs',
    registers: [registry],
    collect() {
      this.set(deployments()?.sessionProcesses ?? 0);
    },
  });
  mirroredCounter(
    registry,
    'toolscope_deployment_restarts_total',
    'Restarts this instance performed, by reason: crash (the restart policy) or requested',
    ['reason'],
    (): Record<string, number> => {
      const restarts = deployments()?.restarts;
      return { crash: restarts?.crash ?? 0, requested: restarts?.requested ?? 0 };
    },
  );

  app.get(
    '/metrics',
    { logLevel: 'warn', schema: { hide: true } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (!sameToken(bearerToken(request), token)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="toolscope-metrics"')
          .send({ message: 'A valid metrics token is required', code: 'unauthorized' });
      }
      return reply.header('content-type', registry.contentType).send(await registry.metrics());
    },
  );
});
