import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/database';
import { claimPendingMail, markMailFailed, markMailSent } from './outbox';
import { logDelivery, smtpDelivery, type MailDelivery } from './delivery';

const RETRY_SWEEP_MS = 60_000;

/**
 * Delivers outbox rows. `kick()` after enqueueing sends right away without making the request
 * wait; a slow sweep retries failed sends. Runs are serialised per instance.
 */
export class OutboxDispatcher {
  private running: Promise<void> = Promise.resolve();
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly deliver: MailDelivery,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Sends everything due now; resolves when this run (and the ones before it) are done. */
  deliverPending(): Promise<void> {
    this.running = this.running
      .then(() => this.runOnce())
      .catch((err: unknown) => this.log.error({ err }, 'outbox run failed'));
    return this.running;
  }

  kick(): void {
    void this.deliverPending();
  }

  startRetrySweep(intervalMs = RETRY_SWEEP_MS): void {
    this.sweep ??= setInterval(() => this.kick(), intervalMs);
    this.sweep.unref();
  }

  async close(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    await this.running;
  }

  private async runOnce(): Promise<void> {
    for (;;) {
      const batch = await claimPendingMail(this.db);
      if (batch.length === 0) return;
      for (const mail of batch) {
        try {
          await this.deliver(mail);
          await markMailSent(this.db, mail.id);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          this.log.warn(
            { outboxId: mail.id, attempt: mail.attempts, error: message },
            'mail delivery failed; will retry',
          );
          await markMailFailed(this.db, mail.id, mail.attempts, message);
        }
      }
    }
  }
}

/**
 * Builds the dispatcher for a plugin's lifetime (SMTP when configured, else the log): the retry
 * sweep starts when the app is ready and stops, after a last delivery run, when it closes.
 */
export function createOutboxDispatcher(app: FastifyInstance): OutboxDispatcher {
  const { smtpUrl, mailFrom, devMailLog } = app.config;
  const dispatcher = new OutboxDispatcher(
    app.db,
    smtpUrl ? smtpDelivery(smtpUrl, mailFrom) : logDelivery(app.log, devMailLog),
    app.log,
  );
  app.addHook('onReady', () => {
    dispatcher.startRetrySweep();
    dispatcher.kick();
    return Promise.resolve();
  });
  app.addHook('onClose', () => dispatcher.close());
  return dispatcher;
}
