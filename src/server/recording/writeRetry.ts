import type { BatchTicket } from './batchGuard';
import type { TakenBatch } from './rowQueue';

// A batch the database could not take because it was unavailable (writeFailures.ts): written
// again, as it was and with its ticket, before anything else, after a pause of 0.5 s doubling to
// 4 s. Meanwhile new rows queue up to the bound (writeQueue.ts). The cap is what recording lags
// behind a database that is back: at 30 s, a 20 s outage was recorded again 11.6 s after it ended
// (issue 32's chaos run); one failed write every 4 s per instance costs a database nothing.

/** The first pause; an explicit flush waits this long, doubling, between its own tries. */
export const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 4_000;

export interface RetriedBatch {
  taken: TakenBatch;
  ticket: BatchTicket;
  /** Journal segments released once it is stored. */
  segments: number[];
}

export class WriteRetry {
  /** The batch to write again; null when none waits. */
  batch: RetriedBatch | null = null;
  private pauseMs = 0;
  private until = 0;

  /** Writes wait: the database was unavailable and the pause is not over. */
  get pausing(): boolean {
    return Date.now() < this.until;
  }

  /** The database refused a write as unavailable: the next pause (ms), twice the last. */
  pause(): number {
    this.pauseMs = Math.min(this.pauseMs ? this.pauseMs * 2 : RETRY_FIRST_MS, RETRY_MAX_MS);
    this.until = Date.now() + this.pauseMs;
    return this.pauseMs;
  }

  /** A write went through, or nothing is left to write again: no batch, no pause. */
  clear(): void {
    this.batch = null;
    this.pauseMs = 0;
    this.until = 0;
  }

  /** Messages and calls of the batch. */
  get rowCount(): number {
    const rows = this.batch?.taken.batch;
    return rows ? rows.messages.length + rows.toolCalls.length : 0;
  }

  /** When the batch's oldest message and call were made (ISO times; absent ones undefined). */
  oldestTimes(): (string | undefined)[] {
    const rows = this.batch?.taken.batch;
    return [rows?.messages[0]?.created_at, rows?.toolCalls[0]?.started_at];
  }

  holdsRowsOf(sessionId: string): boolean {
    const rows = this.batch?.taken.batch;
    return (
      rows !== undefined &&
      (rows.toolCalls.some((call) => call.session_id === sessionId) ||
        rows.messages.some((message) => message.session_id === sessionId))
    );
  }
}
