import type { FastifyInstance } from 'fastify';
import { rootPlugin } from '../http/rootPlugin';
import { NotificationService } from './NotificationService';
import { NotificationSettingsStore } from './NotificationSettingsStore';
import { AgentCallQuotaMonitor } from './sources/agentCallQuotaMonitor';
import { SessionHealthMonitor } from './sources/sessionHealthMonitor';

declare module 'fastify' {
  interface FastifyInstance {
    notificationSettings: NotificationSettingsStore;
    /** The evaluators that raise notifications from the bus; tests await their idle(). */
    notificationMonitors: { sessionHealth: SessionHealthMonitor; agentCallQuota: AgentCallQuotaMonitor };
  }
}

/**
 * Decorates the app with the notification service (app.notifications) and its settings, and
 * starts the evaluators that raise notifications from bus traffic (session health, agent-call
 * quota). Server status and schema drift are raised by the monitor, invitations and deployments by
 * their modules with the builders in ./sources (docs/notifications.md). Registered at the root (skip-override),
 * before the routes, so every module can use app.notifications.
 */
export const notificationsPlugin = rootPlugin(function notificationsPlugin(app: FastifyInstance): void {
  const settings = new NotificationSettingsStore(app.db);
  const notifications = new NotificationService({ db: app.db, bus: app.bus, settings, log: app.log });
  const deps = { bus: app.bus, db: app.db, notifications, log: app.log };
  const sessionHealth = new SessionHealthMonitor({ ...deps, settings });
  const agentCallQuota = new AgentCallQuotaMonitor(deps);
  app.decorate('notificationSettings', settings);
  app.decorate('notifications', notifications);
  app.decorate('notificationMonitors', { sessionHealth, agentCallQuota });
  sessionHealth.start();
  agentCallQuota.start();
  app.addHook('onClose', async () => {
    await Promise.all([sessionHealth.stop(), agentCallQuota.stop()]);
  });
});
