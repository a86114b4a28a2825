import { serverLoggerOptions } from './http/logRedaction';
import { buildApp } from './app';
import { loadConfig, ConfigError } from './config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { loadOrCreateSecret } from './db/secret';
import { dataPermissionsWarning } from './files/privatePaths';

// Process entry: read config, open the database, migrate, listen; on SIGTERM/SIGINT stop
// accepting (503), let in-flight requests finish, flush what is queued, close the database.
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    if (!config.secret) config = { ...config, secret: loadOrCreateSecret(config.dataDir) };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteNice: config.pgliteNice,
  });
  await migrate(db);
  const app = await buildApp({
    config,
    db,
    // No credential in the log: tokens, cookies, query strings and proxy keys are left out (http/logRedaction.ts).
    logger: serverLoggerOptions(config.logLevel),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    // After the grace period, connections still open (a client that opened one and never sent
    // a request, a stuck upload) are cut so close() can finish; the hard exit is a last resort.
    const cut = setTimeout(() => {
      app.log.warn('shutdown grace period over: closing remaining connections');
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    cut.unref();
    const force = setTimeout(() => {
      app.log.error('shutdown did not finish, exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    force.unref();
    try {
      await app.close();
      await db.close();
      app.log.info('shutdown complete');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // Created private by this version; an older one (or an operator's mkdir) may have left them wide.
  const permissions = dataPermissionsWarning(config.dataDir, config.journalDir);
  if (permissions) app.log.warn(permissions);

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Toolscope listening on ${address} (database: ${db.engine}${db.engine === 'pglite' ? ` in ${config.dataDir}` : ''})`,
  );
}

main().catch((error: unknown) => {
  console.error('Toolscope failed to start:', error);
  process.exit(1);
});
