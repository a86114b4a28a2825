import type { FastifyInstance } from 'fastify';
import { rootPlugin } from '../../http/rootPlugin';
import { AlertRuleMonitor } from './alertRuleMonitor';

declare module 'fastify' {
  interface FastifyInstance {
    /** Evaluates the workspaces' alert rules every minute (tests stop it and drive evaluateAll). */
    alertRuleMonitor: AlertRuleMonitor;
  }
}

export const alertRulesPlugin = rootPlugin(function alertRulesPlugin(app: FastifyInstance): void {
  const monitor = new AlertRuleMonitor(app);
  app.decorate('alertRuleMonitor', monitor);
  app.addHook('onReady', () => {
    monitor.start();
    return Promise.resolve();
  });
  app.addHook('onClose', () => monitor.stop());
});
