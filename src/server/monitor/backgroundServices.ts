import type { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { deleteExpiredCredentials } from '../auth/expiredCredentials';
import { TableMaintenance } from '../db/tableMaintenance';
import { startBusRelay, type BusRelay } from '../events/busRelay';
import { HealthMonitor } from './healthMonitor';
import { SchemaDiscovery } from './schemaDiscovery';
import { PINS_CHANNEL, ToolsListRewriter } from './toolsListRewriter';

// The work Toolscope does on its own, beside requests: health rounds, schema discovery and
// drift detection fed by the proxy, the tools/list rewriter cache, (on PostgreSQL) the
// cross-instance relay of live messages, and (on PGlite) the vacuuming and table statistics
// autovacuum would do, and the deletion of expired sign-in rows. All of it starts when the app is ready and stops when it closes — before
// the server stops listening, so nothing holds a graceful shutdown up.
declare module 'fastify' {
  interface FastifyInstance {
    healthMonitor: HealthMonitor;
    schemaDiscovery: SchemaDiscovery;
    toolsListRewriter: ToolsListRewriter;
  }
}

/** On PGlite, tables are vacuumed and their statistics refreshed a minute after start, then every 10 minutes. */
const MAINTENANCE_FIRST_MS = 60_000;
const MAINTENANCE_EVERY_MS = 10 * 60_000;
/** Expired refresh tokens, password resets and login throttles: deleted 2 minutes after start, then hourly. */
const CREDENTIAL_CLEANUP_FIRST_MS = 2 * 60_000;
const CREDENTIAL_CLEANUP_EVERY_MS = 60 * 60_000;

/** Runs `task` after `firstMs`, then every `everyMs`, without keeping the process alive; returns the stop. */
function repeat(task: () => void, firstMs: number, everyMs: number): () => void {
  const first = setTimeout(task, firstMs);
  const every = setInterval(task, everyMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}

interface ToolsListEvent {
  workspaceId: string;
  serverId: string;
  tools: unknown;
}
interface ListChangedEvent {
  workspaceId: string;
  serverId: string;
  kind: string;
}

export function registerBackgroundServices(app: FastifyInstance): Promise<void> {
  const rewriter = new ToolsListRewriter(app.db);
  app.decorate('toolsListRewriter', rewriter);
  app.decorate('schemaDiscovery', new SchemaDiscovery(app, rewriter));
  app.decorate('healthMonitor', new HealthMonitor(app));

  const cleanups: (() => Promise<void> | void)[] = [];
  const maintenance = app.db.engine === 'pglite' ? new TableMaintenance(app.db) : null;
  const logError = (what: string) => (error: unknown) => app.log.error({ err: error }, what);
  // The hourly deletion of expired sign-in rows: one run at a time; a shutdown stops it between chunks.
  let closing = false;
  let credentialRun: Promise<void> | undefined;
  let stopCredentialTimers: (() => void) | undefined;

  app.addHook('onReady', async () => {
    await rewriter.loadAll();
    if (app.db.engine === 'postgres') {
      const relay: BusRelay = await startBusRelay(app.bus, app.db, logError('live message relay failed'));
      cleanups.push(() => relay.stop());
      const unlistenPins = await app.db.listen(PINS_CHANNEL, (serverId) => {
        rewriter.reloadServer(serverId).catch(logError('reloading schema pins failed'));
      });
      cleanups.push(unlistenPins);
    }
    // The proxy decorates its event emitter in its own plugin; it may be absent (API-only builds).
    const proxyEvents = (app as unknown as { proxyEvents?: EventEmitter }).proxyEvents;
    if (proxyEvents) {
      const onToolsList = (event: ToolsListEvent) => {
        app.schemaDiscovery
          .recordToolsList(event.serverId, event.tools)
          .catch(logError('recording a proxied tools/list failed'));
      };
      const onListChanged = (event: ListChangedEvent) => app.schemaDiscovery.scheduleRediscovery(event.serverId);
      proxyEvents.on('tools_list', onToolsList);
      proxyEvents.on('list_changed', onListChanged);
      cleanups.push(() => {
        proxyEvents.off('tools_list', onToolsList);
        proxyEvents.off('list_changed', onListChanged);
      });
    }
    app.healthMonitor.start();
    // Two instances deleting the same expired rows at once is harmless: each deletes what is left.
    const cleanCredentials = () => {
      if (closing || credentialRun) return;
      credentialRun = deleteExpiredCredentials(app.db, { shouldStop: () => closing })
        .then(() => undefined, logError('deleting expired sign-in rows failed'))
        .finally(() => (credentialRun = undefined));
    };
    stopCredentialTimers = repeat(cleanCredentials, CREDENTIAL_CLEANUP_FIRST_MS, CREDENTIAL_CLEANUP_EVERY_MS);
    if (maintenance) {
      // No autovacuum in PGlite: vacuum, freeze and analyze (tableMaintenance.ts).
      const maintain = () => {
        void maintenance.run().then(({ failed }) => {
          for (const { table, error } of failed) logError(`maintaining table ${table} failed`)(error);
        }, logError('table maintenance failed'));
      };
      cleanups.push(repeat(maintain, MAINTENANCE_FIRST_MS, MAINTENANCE_EVERY_MS));
    }
  });

  app.addHook('preClose', async () => {
    closing = true;
    stopCredentialTimers?.();
    await credentialRun;
    // A maintenance run stops after its current table, so the recorder's last flush need not wait for the rest.
    await maintenance?.stop();
    // Discovery first: its background tasks may still ask the health monitor for a first check.
    await app.schemaDiscovery.close();
    await app.healthMonitor.stop();
  });

  app.addHook('onClose', async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return Promise.resolve();
}
