import type { FastifyInstance } from 'fastify';
import { DeploymentManager } from './deploymentManager';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs this instance's deployments (docs/deployments.md). */
    deployments: DeploymentManager;
  }
}

/**
 * Decorates app.deployments. When deployments are enabled, the ones that should be running start
 * once the app is ready (after a restart, or a kill -9, of Toolscope), and every program is
 * stopped — stdin, SIGTERM, SIGKILL — when the app closes, before the database does.
 */
export async function deploymentsPlugin(app: FastifyInstance): Promise<void> {
  const manager = new DeploymentManager(app);
  app.decorate('deployments', manager);
  app.addHook('onReady', async () => {
    await manager.start();
  });
  app.addHook('onClose', async () => {
    await manager.close();
  });
}
(deploymentsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
