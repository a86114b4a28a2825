import type { FastifyInstance } from 'fastify';

// Optional services the monitor engineer decorates on the app. They are looked up at call time
// (not declared here) so this module works with or without them and never fights over typings.
export interface MonitorHooks {
  healthMonitor?: { checkNow(serverId: string): Promise<unknown> };
  schemaDiscovery?: { discoverInBackground(serverId: string): void };
  toolsListRewriter?: { rewrite(serverId: string, result: unknown): unknown };
}

export function monitorHooks(app: FastifyInstance): MonitorHooks {
  return app;
}
