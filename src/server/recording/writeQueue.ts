import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { EventBus } from '../events/bus';
import { StoredAnnouncements } from './announceStored';
import { BatchRounds, type WriteCounters } from './batchRound';
import type { QueuedMessage, QueuedSession, QueuedToolCall } from './rows';
import { RowQueue } from './rowQueue';
import { RETRY_FIRST_MS, type WriteRetry } from './writeRetry';
import { FoldSchedule } from './trafficFold';
import type { JournaledRows } from './journal/journaledRows';

// When the recorder's rows reach the database: on a timer (or at once when a batch is full), one
// statement of limited size at a time, with the live events of what was stored published after
// each write. A database that cannot take writes for a while (restart, failover) gets the same
// batch again, with growing pauses, while new rows queue up to the bound. The rows wait in
// RowQueue (behind the write-ahead journal); one write and its outcome is batchRound.ts.

/** An explicit flush gives an unavailable database this many more tries (0.5 + 1 + 2 s). */
const FLUSH_RETRIES = 3;

export interface WriteQueueOptions {
  queueLimit: number;
  flushMs: number;
  /** Flush at once when this many rows wait (default 2000). */
  batchRows?: number;
  /** Most messages written by one statement (calls: half as many); the rest follow at once (default 500). */
  maxBatchRows?: number;
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** The write-ahead journal (journal/): every row is appended there before it is queued. */
  journal?: JournaledRows;
  /** Pending analytics increments are folded into the rollup's grains this long after a write (default 5000; trafficFold.ts). */
  foldMs?: number;
}

export class WriteQueue {
  readonly counters: WriteCounters = {
    sessions: 0,
    messages: 0,
    toolCalls: 0,
    droppedMessages: 0,
    droppedCalls: 0,
    lost: 0,
    flushes: 0,
  };
  private readonly rows: RowQueue;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly journal: JournaledRows | undefined;
  private readonly announcements: StoredAnnouncements;
  private readonly rounds: BatchRounds;
  /** Folds the analytics increments the writes store pending (trafficFold.ts). */
  readonly folds: FoldSchedule;
  /** Told of the calls each write stored (storedInputRounds.ts joins a retry's halves then). */
  callsWritten: ((calls: readonly QueuedToolCall[]) => void) | undefined;

  constructor(
    db: Database,
    bus: EventBus,
    private readonly options: WriteQueueOptions,
  ) {
    this.rows = new RowQueue(options.queueLimit, this.counters);
    this.journal = options.journal;
    this.folds = new FoldSchedule(db, options.foldMs ?? 5000, options.log);
    this.announcements = new StoredAnnouncements(
      bus,
      (sessionId) => this.rowsWaiting(sessionId),
      (sessionId) => this.rows.sessionDone(sessionId),
      db,
    );
    this.rounds = new BatchRounds({
      db,
      rows: this.rows,
      counters: this.counters,
      announcements: this.announcements,
      folds: this.folds,
      journal: this.journal,
      log: options.log,
      retryIn: (ms) => this.startTimer(ms),
      afterWrite: (limit) => this.scheduleAfterWrite(limit),
      callsWritten: (calls) => this.callsWritten?.(calls),
    });
  }

  /** The batch the database could not take, and the pause before it is written again. */
  private get retry(): WriteRetry {
    return this.rounds.retry;
  }

  get lastFlushMs(): number | null {
    return this.rounds.lastFlushMs;
  }

  get lastError(): string | null {
    return this.rounds.lastError;
  }

  /** When the database stopped taking this recorder's writes (ms since the epoch); null while it takes them. */
  get writeFailingSinceMs(): number | null {
    return this.rounds.writeFailingSinceMs;
  }

  get queuedRows(): number {
    return this.rows.size;
  }

  /** Messages and calls not yet written: queued, and in a batch waiting to be written again. */
  get waitingRows(): number {
    return this.rows.size + this.retry.rowCount;
  }

  /** How long the oldest row not yet written has waited (ms), or null when nothing waits. */
  oldestWaitingMs(): number | null {
    const times = [this.rows.oldestAtMs(), ...this.retry.oldestTimes()]
      .map((t) => (typeof t === 'string' ? Date.parse(t) : t))
      .filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
    return times.length > 0 ? Math.max(0, Date.now() - Math.min(...times)) : null;
  }

  /** The session's row changed: it is written (upserted) with the next flush. Never dropped. */
  markDirty(session: QueuedSession): void {
    // Its counts are this recorder's part of the session's (batchWriter.ts), wherever it started.
    session.row.recorder_id ??= this.rounds.recorderId;
    this.journal?.session(session);
    this.rows.markDirty(session);
    this.schedule();
  }

  /** Queues a message; false (and counted) when the queue is full or the journal's budget spent. */
  pushMessage(message: QueuedMessage): boolean {
    if (this.journal && !this.journal.hasRoom()) {
      this.journal.noteOverBudget();
      this.counters.droppedMessages++;
      return false;
    }
    const queued = this.rows.pushMessage(message);
    if (queued) {
      this.journal?.message(message);
      this.schedule();
    }
    return queued;
  }

  /** Queues a call at its request (see RowQueue.pushToolCall); past the journal's budget it waits for its settlement. */
  pushToolCall(call: QueuedToolCall): void {
    if (this.journal && !this.journal.hasRoom()) return;
    if (this.rows.pushToolCall(call)) this.journal?.toolCall(call);
    this.schedule();
  }

  /**
   * Queues a settled call (see RowQueue.settleToolCall); false (and counted) when the queue is full
   * or the journal's budget is spent — unless its request was journaled, whose outcome must follow.
   */
  settleToolCall(call: QueuedToolCall): boolean {
    if (this.journal && !this.journal.hasRoom() && !this.journal.wasJournaled(call)) {
      this.journal.noteOverBudget();
      this.counters.droppedCalls++;
      return false;
    }
    const queued = this.rows.settleToolCall(call);
    if (queued) {
      this.journal?.toolCall(call);
      this.schedule();
    }
    return queued;
  }

  /**
   * A call this recorder settled with a statement of its own, not its row's write (a call another
   * instance may have ended first: storedCallSettles.ts): added to the minute rollups only, once
   * the statement said it ended the call — the rollups follow the row.
   */
  countStoredSettle(call: QueuedToolCall, clientName: string | null): void {
    this.rows.usage.add(call);
    this.rows.traffic.addStoredSettle(call, clientName);
    this.schedule();
  }

  /** A tools/list answer reached the session's agent (see RowQueue.noteToolsListed). */
  noteToolsListed(session: QueuedSession, result: unknown, at: string): void {
    this.rows.noteToolsListed(session, result, at);
  }

  /** Drops everything queued for a deleted server (its rows' foreign keys are gone). */
  forgetServer(serverId: string): void {
    const dropped = this.rows.forgetServer(serverId);
    this.journal?.discard(dropped);
    this.announcements.forgetServer(serverId);
    if (this.retry.batch)
      this.retry.batch = { ...this.retry.batch, taken: this.rows.withoutForgotten(this.retry.batch.taken) };
  }

  /**
   * Writes everything queued now, every changed session included (and waits for a flush already
   * running). An unavailable database gets FLUSH_RETRIES more tries; then the rows stay queued for
   * the retry timer — or, at shutdown (`final`), are dropped and counted as lost.
   */
  async flush(final = false): Promise<void> {
    let failures = 0;
    do {
      if (await this.flushOnce(true)) failures = 0;
      else if (++failures > FLUSH_RETRIES) {
        if (final) this.giveUp();
        return;
      } else {
        this.stopTimer(); // this loop does the retrying now
        await new Promise((resolve) => setTimeout(resolve, RETRY_FIRST_MS * 2 ** (failures - 1)));
      }
    } while (this.hasRows);
    // What is written is folded too: after a flush the rollup's grains hold everything.
    await this.folds.now();
  }

  private get hasRows(): boolean {
    return this.rounds.hasRows;
  }

  stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Shutdown found the database unavailable, try after try: what is queued is lost (and counted). */
  private giveUp(): void {
    const failed = this.retry.batch?.taken.batch;
    if (failed)
      this.counters.lost +=
        failed.messages.length + failed.toolCalls.filter((call) => call.status !== 'pending').length;
    this.retry.clear();
    this.counters.lost += this.rows.dropAll();
    this.announcements.clear();
    this.stopTimer();
  }

  /**
   * One statement's worth (see maxBatchRows); `all` also writes sessions not yet due (see
   * RowQueue.take). False when the database was unavailable (the rows are queued again).
   */
  private async flushOnce(all = false): Promise<boolean> {
    while (this.flushing) await this.flushing;
    this.stopTimer();
    if (!this.hasRows) return true;
    // At most maxBatchRows messages and calls per statement: one statement holds the database
    // (PGlite serves one statement at a time, even from its worker thread), so a huge one would
    // make the API's reads wait behind it.
    const write = this.rounds.write(all, this.options.maxBatchRows ?? 500);
    this.flushing = write.then(() => undefined).finally(() => (this.flushing = undefined));
    return write;
  }

  private schedule(): void {
    // Waiting for an unavailable database: its retry timer is set, and a full batch waits too.
    if (this.retry.pausing) return;
    if (this.rows.size >= (this.options.batchRows ?? 2000) && !this.flushing) {
      void this.flushOnce();
      return;
    }
    if (this.timer || this.flushing) return;
    this.startTimer(this.options.flushMs);
  }

  private startTimer(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flushOnce();
    }, ms);
  }

  /** Rows of the session still to be written: queued, or in the batch waiting to be written again. */
  private rowsWaiting(sessionId: string): boolean {
    return this.retry.holdsRowsOf(sessionId) || this.rows.holdsRowsOf(sessionId);
  }

  /**
   * What arrived while a write ran waits for the next timer, so a steady stream is written in
   * batches of flushMs (not in one small batch per write, which costs the database a statement's
   * fixed price every few calls). More than one write's worth of rows is a backlog: the next write
   * starts at once (on the next turn of the event loop, so requests interleave).
   */
  private scheduleAfterWrite(limit: number): void {
    if (this.timer || !this.rows.hasRows) return;
    this.startTimer(this.rows.isBacklog(limit) ? 0 : this.options.flushMs);
  }
}
