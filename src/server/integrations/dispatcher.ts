import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { NotificationService } from '../notifications/NotificationService';
import { findIntegrationById, insertActivity, type IntegrationRow } from '../data/integrations/store';
import { openSecrets } from '../data/integrations/secrets';
import {
  claimDueDeliveries,
  DELIVERY_POLICY,
  markDelivered,
  markFailed,
  retryDelayMs,
  scheduleRetry,
  type PendingDelivery,
} from './deliveryQueue';
import { summarize } from './payloads';
import { attemptDelivery, type AttemptOutcome, type SenderDeps } from './sender';

// Sends due deliveries: kicked right after a notification queued some, and swept every few
// seconds for retries that came due and for leases a crashed instance left behind.

export interface DispatcherOptions {
  sender: Omit<SenderDeps, 'timeoutMs'> & { timeoutMs?: number };
  db: Database;
  notifications: NotificationService;
  serverSecret: string;
  log: FastifyBaseLogger;
  /** The first retry's wait (doubles each attempt); tests shorten it. */
  retryBaseMs?: number;
  sweepMs?: number;
}

export class IntegrationDispatcher {
  private running: Promise<void> = Promise.resolve();
  private sweep: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly sender: SenderDeps;

  constructor(private readonly options: DispatcherOptions) {
    this.sender = { ...options.sender, timeoutMs: options.sender.timeoutMs ?? DELIVERY_POLICY.timeoutMs };
  }

  private get sweepMs(): number {
    return this.options.sweepMs ?? 5_000;
  }

  get senderDeps(): SenderDeps {
    return this.sender;
  }

  /** Sends everything due now; resolves when this run (and the ones before it) are done. */
  deliverDue(): Promise<void> {
    this.running = this.running
      .then(() => (this.closed ? undefined : this.runOnce()))
      .catch((err: unknown) => this.options.log.error({ err }, 'integration delivery run failed'));
    return this.running;
  }

  kick(): void {
    void this.deliverDue();
  }

  start(): void {
    this.sweep ??= setInterval(() => this.kick(), this.sweepMs);
    this.sweep.unref();
    this.kick();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    await this.running;
  }

  private async runOnce(): Promise<void> {
    while (!this.closed) {
      const batch = await claimDueDeliveries(this.options.db);
      if (batch.length === 0) return;
      // One receiver's slowness must not hold another's: a batch goes out side by side.
      await Promise.all(batch.map((delivery) => this.deliver(delivery)));
    }
  }

  private async deliver(delivery: PendingDelivery): Promise<void> {
    const { db } = this.options;
    const integration = await findIntegrationById(db, delivery.integrationId);
    if (!integration || !integration.enabled) {
      await markFailed(
        db,
        delivery.id,
        integration
          ? `The integration is turned off${integration.disabled_reason ? `: ${integration.disabled_reason}` : ''}`
          : 'The integration was deleted',
      );
      return;
    }
    const outcome = await attemptDelivery(
      this.sender,
      {
        kind: integration.kind,
        config: { ...integration.config, ...openSecrets(integration.secrets, this.options.serverSecret) },
      },
      delivery.event,
      delivery.id,
    );
    const summary = summarize(delivery.event);
    const record = (status: 'delivered' | 'retrying' | 'failed' | 'skipped') =>
      insertActivity(db, {
        integrationId: integration.id,
        deliveryId: delivery.id,
        event: delivery.event.type,
        status,
        statusCode: outcome.statusCode,
        latencyMs: outcome.latencyMs,
        error: outcome.error,
        attempt: delivery.attempts,
        summary,
      });

    if (outcome.ok) {
      await record(outcome.skipped ? 'skipped' : 'delivered');
      await markDelivered(db, delivery.id);
      if (!outcome.skipped)
        await db.query('update integrations set failures_in_a_row = 0 where id = $1 and failures_in_a_row <> 0', [
          integration.id,
        ]);
      return;
    }
    if (outcome.gone) {
      await record('failed');
      await markFailed(db, delivery.id, outcome.error ?? 'Gone');
      await this.turnOff(
        integration,
        `The receiver answered 410 Gone on ${new Date().toISOString()}; check the integration's URL and turn it on again`,
      );
      return;
    }
    if (outcome.retryable && delivery.attempts < DELIVERY_POLICY.maxAttempts) {
      await record('retrying');
      const delay = retryDelayMs(delivery.attempts, outcome.retryAfterMs, this.options.retryBaseMs);
      await scheduleRetry(db, delivery.id, delay, outcome.error ?? 'failed');
      // A retry due before the next sweep gets a wake-up of its own.
      if (delay < this.sweepMs) setTimeout(() => this.kick(), delay + 5).unref();
      return;
    }
    await record('failed');
    await markFailed(db, delivery.id, outcome.error ?? 'failed');
    await this.afterFinalFailure(integration, delivery, outcome);
  }

  private async afterFinalFailure(
    integration: IntegrationRow,
    delivery: PendingDelivery,
    outcome: AttemptOutcome,
  ): Promise<void> {
    const { db } = this.options;
    const [{ failures_in_a_row: failures }] = await db.query<{ failures_in_a_row: number }>(
      'update integrations set failures_in_a_row = failures_in_a_row + 1 where id = $1 returning failures_in_a_row',
      [integration.id],
    );
    await this.tellAdmins(
      integration,
      'Integration delivery failed',
      `${integration.name} could not deliver "${delivery.event.title}" after ${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'}: ${outcome.error ?? 'unknown error'}`,
    );
    if (failures >= DELIVERY_POLICY.failuresToDisable) {
      await this.turnOff(
        integration,
        `Turned off after ${failures} deliveries failed in a row (last: ${outcome.error ?? 'unknown error'})`,
      );
    }
  }

  private async turnOff(integration: IntegrationRow, reason: string): Promise<void> {
    const rows = await this.options.db.query(
      'update integrations set enabled = false, disabled_reason = $2, updated_at = now() where id = $1 and enabled returning id',
      [integration.id, reason],
    );
    if (rows.length > 0) await this.tellAdmins(integration, 'Integration turned off', `${integration.name}: ${reason}`);
  }

  /**
   * Owners and admins hear of it in the app. raiseForUser does not fan out to integrations, so a
   * broken integration cannot feed itself.
   */
  private async tellAdmins(integration: IntegrationRow, title: string, message: string): Promise<void> {
    try {
      const admins = await this.options.db.query<{ user_id: string }>(
        `select user_id from workspace_members where workspace_id = $1 and role in ('owner', 'admin')`,
        [integration.workspace_id],
      );
      for (const { user_id } of admins) {
        await this.options.notifications.raiseForUser(user_id, {
          workspaceId: integration.workspace_id,
          type: 'system_announcement',
          severity: 'error',
          title,
          message: message.slice(0, 1000),
          actionUrl: `/integrations?integrationId=${integration.id}`,
          metadata: { integrationId: integration.id, source: 'integrations' },
        });
      }
    } catch (err) {
      this.options.log.error(
        { err, integrationId: integration.id },
        'could not tell the admins about an integration failure',
      );
    }
  }
}
