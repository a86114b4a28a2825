import type { FastifyInstance } from 'fastify';
import { rootPlugin } from '../http/rootPlugin';
import { TelemetryService } from './telemetryService';

declare module 'fastify' {
  interface FastifyInstance {
    /** Exports the workspaces' MCP traffic to their OTLP collectors. */
    telemetry: TelemetryService;
  }
}

/** Starts the telemetry service with the app and stops it (after a last export) when the app closes. */
export const telemetryPlugin = rootPlugin(function telemetryPlugin(app: FastifyInstance): void {
  const telemetry = new TelemetryService({
    db: app.db,
    bus: app.bus,
    outbound: app.outbound,
    secret: app.config.secret,
    log: app.log,
    version: app.config.version,
    metricsIntervalMs: app.config.telemetryMetricsIntervalMs,
  });
  app.decorate('telemetry', telemetry);
  app.addHook('onReady', async () => {
    // The proxy registers after this plugin: its events exist once the app is ready.
    if (app.hasDecorator('proxyEvents')) telemetry.useProxyEvents(app.proxyEvents);
    await telemetry.start();
  });
  app.addHook('onClose', () => telemetry.close());
});
