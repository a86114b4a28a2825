import type { FastifyInstance } from 'fastify';
import { rootPlugin } from '../../http/rootPlugin';
import { ensureWeeklyPartitions } from '../../data/retention/partitions';
import { RetentionJob } from './retentionJob';

declare module 'fastify' {
  interface FastifyInstance {
    /** The expiry job (docs/operations.md "Retention"). */
    retention: RetentionJob;
  }
}

export const retentionPlugin = rootPlugin(function retentionPlugin(app: FastifyInstance): void {
  const job = new RetentionJob(app.db, {
    operatorCapDays: app.config.rawRetentionMaxDays,
    intervalMs: app.config.retentionIntervalMs,
    exportDir: app.config.exportDir,
    log: app.log,
  });
  app.decorate('retention', job);
  // The raw tables' partitions of this week and the next two, before anything is recorded; a row
  // without one would land in the default partition (correct, not pruned).
  app.addHook('onReady', async () => {
    await ensureWeeklyPartitions(app.db, new Date()).catch((err: unknown) =>
      app.log.error({ err }, 'raw table partitions not made ahead'),
    );
  });
  job.start();
  // Before the database closes (onClose hooks run in order of registration; the database closes after app.close()).
  app.addHook('onClose', () => job.stop());
});
