import type { Database } from '../../db/database';
import { expireRecordedData, type ExpiryCounts } from '../../data/retention/expiry';
import { runDailyExports } from './dailyExport';

// Runs the expiry (expiry.ts) on an interval. The clock is an option so a test sets the day and
// calls runOnce() — nothing waits for time. Instances need no coordination: the deletes are
// idempotent, and a second instance running at once finds less to do.

export interface RetentionJobOptions {
  operatorCapDays: number | null;
  /** Where daily exports go (dailyExport.ts); undefined = none. */
  exportDir?: string;
  /** 0 = never on its own. */
  intervalMs: number;
  now?: () => Date;
  log: { info(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
}

export class RetentionJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<ExpiryCounts> | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly db: Database,
    private readonly options: RetentionJobOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    if (this.options.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((err: unknown) => this.options.log.error({ err }, 'retention expiry failed'));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** One run (a run already going is joined, not doubled). */
  runOnce(now = this.now()): Promise<ExpiryCounts> {
    this.running ??= this.exportThenExpire(now)
      .then((counts) => {
        if (
          counts.partitionsDropped.length + counts.sessions + counts.messages + counts.toolCalls + counts.rollupRows >
          0
        )
          this.options.log.info(counts, 'retention expired recorded data');
        return counts;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Export comes before expiry: a day's file is written before anything of that day can go. */
  private async exportThenExpire(now: Date): Promise<ExpiryCounts> {
    if (this.options.exportDir) {
      const files = await runDailyExports(this.db, this.options.exportDir, now);
      if (files.length > 0) this.options.log.info({ files }, 'daily exports written');
    }
    return expireRecordedData(this.db, { now, operatorCapDays: this.options.operatorCapDays });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
