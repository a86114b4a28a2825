import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { StoredAnnouncements } from './announceStored';
import type { BatchTicket } from './batchGuard';
import { writeBatch, type Batch } from './batchWriter';
import type { QueuedSession, QueuedToolCall } from './rows';
import { filterTaken, type RowQueue, type TakenBatch } from './rowQueue';
import { WriteRetry } from './writeRetry';
import { isTransientWriteError, writeRowByRow } from './writeFailures';
import { isEmptyTraffic } from './trafficSql';
import type { FoldSchedule } from './trafficFold';
import type { JournaledRows } from './journal/journaledRows';

// One write of the recorder's queue (writeQueue.ts decides when): takes a batch — or the batch the
// database could not take last time — writes it in one statement, and accounts for the outcome:
// counts, live events of what was stored, journal segments released, the database's health. A
// database that is unavailable gets the same batch again, as it was, after a growing pause —
// guarded so that a write committed before its connection broke is not stored twice
// (batchGuard.ts); a batch the database refuses for its content is written row by row
// (writeFailures.ts).

export interface WriteCounters {
  sessions: number;
  messages: number;
  toolCalls: number;
  droppedMessages: number;
  droppedCalls: number;
  lost: number;
  flushes: number;
}

/** What a round needs of the queue around it. */
export interface RoundContext {
  db: Database;
  rows: RowQueue;
  counters: WriteCounters;
  announcements: StoredAnnouncements;
  folds: FoldSchedule;
  journal: JournaledRows | undefined;
  log: Pick<FastifyBaseLogger, 'error'> | undefined;
  /** The database was unavailable: try again after this pause (ms). */
  retryIn: (ms: number) => void;
  /** The write is done: schedule the next one for what is left (`limit` as for RowQueue.take). */
  afterWrite: (limit: number) => void;
  /** These calls' rows are in the database now (copies, as written). */
  callsWritten: (calls: readonly QueuedToolCall[]) => void;
}

export class BatchRounds {
  /** The batch the database could not take, and the pause before it is written again. */
  readonly retry = new WriteRetry();
  /** This recorder's batches are numbered (batchGuard.ts). */
  readonly recorderId = randomUUID();
  private lastSeq = 0;
  /** Journal segments of writes interrupted part way (rows put back): released by the next write that leaves nothing queued. */
  private parkedSegments: number[] = [];
  lastFlushMs: number | null = null;
  lastError: string | null = null;
  /** When the database stopped taking this recorder's writes (ms since the epoch); null while it takes them. */
  writeFailingSinceMs: number | null = null;

  constructor(private readonly ctx: RoundContext) {}

  /** Rows wait: queued, or in a batch to be written again. */
  get hasRows(): boolean {
    return this.retry.batch !== null || this.ctx.rows.hasRows;
  }

  /**
   * Writes at most `limit` messages (calls: half as many); `all` also writes sessions not yet due
   * (see RowQueue.take). False when the database was unavailable (the rows wait to be written again).
   */
  async write(all: boolean, limit: number): Promise<boolean> {
    const { rows, journal } = this.ctx;
    let taken: TakenBatch;
    let ticket: BatchTicket;
    let segments: number[];
    if (this.retry.batch) ({ taken, ticket, segments } = this.retry.batch);
    else {
      // The token counts of the calls settled since the last write, counted on the tokenizer
      // thread meanwhile (trafficRollup.ts): usually back already; waited for a moment if not.
      await rows.traffic.ready();
      taken = rows.take(limit, all);
      ticket = this.nextTicket();
      segments = journal?.take([...taken.sessions, ...taken.calls, ...taken.batch.messages]) ?? [];
    }
    const { batch } = taken;
    if (
      batch.sessions.length === 0 &&
      batch.messages.length === 0 &&
      batch.toolCalls.length === 0 &&
      batch.usage.length === 0 &&
      isEmptyTraffic(batch.traffic ?? null)
    ) {
      // Only sessions not yet due (or a retrying batch whose server was deleted): nothing to write.
      journal?.release(segments);
      this.retry.clear();
      this.ctx.afterWrite(limit);
      return true;
    }
    const started = performance.now();
    let stored = { batch, sessions: taken.sessions };
    let unwritten: Batch | null = null;
    try {
      await writeBatch(this.ctx.db, batch, ticket);
      if (!isEmptyTraffic(batch.traffic ?? null)) this.ctx.folds.noteWritten();
      this.lastFlushMs = Math.round(performance.now() - started);
      // A whole batch went in: the database is back (the health routes stop saying writeFailed).
      this.lastError = null;
      this.writeFailingSinceMs = null;
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      if (isTransientWriteError(error)) {
        this.writeFailingSinceMs ??= Date.now();
        this.ctx.log?.error(
          { err: error },
          'recorder flush failed: the database is unavailable, the batch waits for it',
        );
        // Rows of a server deleted during the write are not written again.
        this.retry.batch = { taken: rows.withoutForgotten(taken), ticket, segments };
        this.pauseForRetry();
        return false;
      }
      this.retry.batch = null;
      // The rows themselves: one refused row must not take the rest of the batch with it.
      this.ctx.log?.error({ err: error }, 'recorder flush failed: writing its rows one by one');
      // Rows of a server deleted while they were written are dropped, not tried and counted as lost:
      // the database refuses them because their server is gone, which is what the user asked for.
      taken = rows.withoutForgotten(taken);
      const outcome = await writeRowByRow(
        this.ctx.db,
        taken.batch,
        () => this.nextTicket(),
        (row) => rows.isOfForgottenServer(row),
      );
      this.ctx.counters.lost += outcome.lost;
      if (outcome.reasons.length > 0)
        // Set aside for good: the reasons say which rows and why (the first few; the count is exact).
        this.ctx.log?.error(
          { refused: outcome.reasons.length, reasons: outcome.reasons.slice(0, 5) },
          'recorder set aside rows the database refused',
        );
      const { interrupted } = outcome;
      const notStored = new Set<unknown>([
        ...outcome.refused,
        ...(interrupted ? [interrupted.row, ...(Object.values(interrupted.rest).flat() as unknown[])] : []),
      ]);
      stored = filterTaken(taken, (row) => !notStored.has(row));
      // Every row was tried and answered for itself: the database takes writes again.
      if (!interrupted) this.writeFailingSinceMs = null;
      if (interrupted) {
        // The database went away part way: the row whose write met it is written again with its
        // ticket before anything else; the rows not tried yet wait for it in the queue.
        unwritten = interrupted.rest;
        this.retry.batch = {
          taken: rows.withoutForgotten(filterTaken(taken, (row) => row === interrupted.row)),
          ticket: interrupted.ticket,
          segments: [],
        };
        rows.putBack(interrupted.rest, taken);
        this.parkedSegments.push(...segments);
        segments = [];
        this.pauseForRetry();
      }
    }
    // Committed (or refused for good, row by row): the journal no longer needs these records.
    journal?.release(segments);
    if (unwritten === null && this.parkedSegments.length > 0 && !this.hasRows) {
      journal?.release(this.parkedSegments);
      this.parkedSegments = [];
    }
    return this.stored(stored, limit, unwritten !== null);
  }

  /** After a write: counts and announces what it stored; true unless the database went away (`interrupted`). */
  private async stored(
    stored: { batch: Batch; sessions: QueuedSession[] },
    limit: number,
    interrupted: boolean,
  ): Promise<boolean> {
    const { counters } = this.ctx;
    if (!interrupted) this.retry.clear();
    counters.flushes++;
    counters.sessions += stored.batch.sessions.length;
    counters.messages += stored.batch.messages.length;
    counters.toolCalls += stored.batch.toolCalls.filter((call) => call.status !== 'pending').length;
    this.ctx.callsWritten(stored.batch.toolCalls);
    try {
      await this.ctx.announcements.afterWrite(stored.sessions, stored.batch);
    } finally {
      if (!interrupted) this.ctx.afterWrite(limit);
    }
    return !interrupted;
  }

  private nextTicket(): BatchTicket {
    return { recorderId: this.recorderId, seq: ++this.lastSeq };
  }

  private pauseForRetry(): void {
    this.ctx.retryIn(this.retry.pause());
  }
}
