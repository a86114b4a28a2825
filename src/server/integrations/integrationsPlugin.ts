import type { FastifyInstance } from 'fastify';
import { rootPlugin } from '../http/rootPlugin';
import { createOutboxDispatcher } from '../mail/dispatcher';
import { mailLinkBase } from '../http/publicUrl';
import { enabledIntegrations, deleteOldActivities } from '../data/integrations/store';
import type { RaisedNotification } from '../notifications/NotificationService';
import type { Queryable } from '../db/database';
import { enqueueDeliveries } from './deliveryQueue';
import { IntegrationDispatcher } from './dispatcher';
import type { IntegrationEvent } from './payloads';
import { matchesRules } from './rules';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends integration deliveries (tests await deliverDue()). */
    integrationDispatcher: IntegrationDispatcher;
  }
}

export interface IntegrationsPluginOptions {
  /** The first retry's wait; tests shorten it. */
  retryBaseMs?: number;
  sweepMs?: number;
}

export function toIntegrationEvent(raised: RaisedNotification): IntegrationEvent {
  return {
    kind: 'notification.raised',
    workspaceId: raised.workspaceId,
    type: raised.type,
    severity: raised.severity,
    title: raised.title,
    message: raised.message,
    actionUrl: raised.actionUrl ?? null,
    metadata: raised.metadata ?? {},
    raisedAt: raised.raisedAt.toISOString(),
  };
}

/**
 * Every workspace notification goes to the integrations whose rules match: queued in the
 * notification's own transaction, sent afterwards by the dispatcher (never on the raising path).
 * Registered at the root after notificationsPlugin (skip-override), like it.
 */
export const integrationsPlugin = rootPlugin(function integrationsPlugin(
  app: FastifyInstance,
  options: IntegrationsPluginOptions,
): void {
  // Email integrations queue into the mail outbox; this dispatcher sends them right away (the
  // outbox's leases keep it from sending what another dispatcher already claimed).
  const mail = createOutboxDispatcher(app);
  const dispatcher = new IntegrationDispatcher({
    db: app.db,
    notifications: app.notifications,
    serverSecret: app.config.secret,
    log: app.log,
    retryBaseMs: options.retryBaseMs ?? app.config.integrationRetryBaseMs,
    sweepMs: options.sweepMs,
    sender: {
      db: app.db,
      outbound: app.outbound,
      // Like mail, a Slack or PagerDuty message has no request of the reader's to take an origin from.
      publicBase: () => mailLinkBase(app.config),
      kickMail: () => mail.kick(),
    },
  });
  app.decorate('integrationDispatcher', dispatcher);

  app.notifications.addOutlet(async (tx: Queryable, raised) => {
    const event = toIntegrationEvent(raised);
    const matching = (await enabledIntegrations(tx, raised.workspaceId)).filter((i) =>
      matchesRules(i.kind, i.rules, event),
    );
    if (matching.length === 0) return;
    await enqueueDeliveries(
      tx,
      matching.map((i) => i.id),
      event,
    );
    return () => dispatcher.kick();
  });

  let cleanup: NodeJS.Timeout | undefined;
  app.addHook('onReady', () => {
    dispatcher.start();
    cleanup = setInterval(() => {
      deleteOldActivities(app.db).catch((err: unknown) => app.log.warn({ err }, 'integration activity cleanup failed'));
    }, 60 * 60_000);
    cleanup.unref();
    return Promise.resolve();
  });
  app.addHook('onClose', async () => {
    if (cleanup) clearInterval(cleanup);
    await dispatcher.close();
  });
});
