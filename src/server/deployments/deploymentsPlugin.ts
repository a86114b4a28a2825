import type { FastifyInstance } from 'fastify';
import { rootPlugin } from '../http/rootPlugin';
import { DeploymentManager } from './deploymentManager';
import { missingSandbox } from './hostIsolation';
import { runsAsRoot } from './localProcessRunner';

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
export const deploymentsPlugin = rootPlugin(function deploymentsPlugin(app: FastifyInstance): void {
  const manager = new DeploymentManager(app);
  if (app.config.deploymentsEnabled) {
    // Never an unsandboxed fallback: without the sandbox's tools, Toolscope does not start.
    const missing = missingSandbox(manager.runner.hostTools, runsAsRoot());
    // The start fails with the reason (rootPlugin turns the throw into the rejection Fastify reports).
    if (missing) throw new Error(missing);
  }
  app.decorate('deployments', manager);
  app.addHook('onReady', async () => {
    await manager.start();
  });
  app.addHook('onClose', async () => {
    await manager.close();
  });
});
