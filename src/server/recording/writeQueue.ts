import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { EventBus } from '../events/bus';
import { announceStored } from './announceStored';
import { writeBatch, type Batch } from './batchWriter';
import type { QueuedMessage, QueuedSession, QueuedToolCall } from './rows';
import { UsageRollup } from './usageRollup';
import { isTransientWriteError, writeRowByRow } from './writeFailures';

// The recorder's memory between a message and the database: bounded queues of rows, flushed on a
// timer (or at once when a batch is full) in transactions of limited size, with the live events
// of what was stored published after each write. A database that cannot take writes for a while
// (restart, failover) gets the same rows again, with growing pauses, while new ones queue up to
// the bound; a batch the database refuses for its content is written row by row (writeFailures.ts).

/** An active session's row (counts, last activity) is rewritten at most this often. */
const SESSION_REFRESH_MS = 1000;
/** Pauses before writing again after the database refused a write as unavailable: 0.5 s doubling to 30 s. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;
/** An explicit flush (shutdown) gives an unavailable database this many more tries (0.5 + 1 + 2 s). */
const FLUSH_RETRIES = 3;

export interface WriteQueueOptions {
  queueLimit: number;
  flushMs: number;
  /** Flush at once when this many rows wait (default 2000). */
  batchRows?: number;
  /** Most messages written by one transaction (calls: half as many); the rest follow at once (default 500). */
  maxBatchRows?: number;
  log?: Pick<FastifyBaseLogger, 'error'>;
}

export class WriteQueue {
  private dirty = new Set<QueuedSession>();
  private messages: QueuedMessage[] = [];
  private toolCalls: QueuedToolCall[] = [];
  /** The calls in `toolCalls`: a call queued at its request is not queued again at its answer. */
  private readonly queuedCalls = new Set<QueuedToolCall>();
  /** Calls written while still pending (their settlement must reach the database). */
  private readonly writtenPending = new WeakSet<QueuedToolCall>();
  /** When each active session's row was last taken into a write (see dueSessions). */
  private readonly sessionWrittenAt = new WeakMap<QueuedSession, number>();
  private readonly usage = new UsageRollup();
  /** While the database is unavailable: the current pause, and until when writes wait. */
  private retryMs = 0;
  private retryAt = 0;
  /** Session id → server id of sessions not yet written as ended (messages carry no server id). */
  private readonly sessionsOfServer = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  readonly counters = { sessions: 0, messages: 0, toolCalls: 0, droppedMessages: 0, droppedCalls: 0, lost: 0, flushes: 0 };
  lastFlushMs: number | null = null;
  lastError: string | null = null;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly options: WriteQueueOptions,
  ) {}

  get queuedRows(): number {
    return this.messages.length + this.toolCalls.length;
  }

  /** The session's row changed: it is written (upserted) with the next flush. Never dropped. */
  markDirty(session: QueuedSession): void {
    this.dirty.add(session);
    this.sessionsOfServer.set(session.row.id, session.row.server_id);
    this.schedule();
  }

  /** Queues a message; false (and counted) when the queue is full. */
  pushMessage(message: QueuedMessage): boolean {
    if (this.queuedRows >= this.options.queueLimit) {
      this.counters.droppedMessages++;
      return false;
    }
    this.messages.push(message);
    this.schedule();
    return true;
  }

  /**
   * Queues a call whose request was just seen, so a slow call's request is stored (and replayable)
   * before its answer. Not counted as dropped when the queue is full: its settlement queues it again.
   */
  pushToolCall(call: QueuedToolCall): void {
    if (this.queuedCalls.has(call) || this.queuedRows >= this.options.queueLimit) return;
    this.enqueueCall(call);
  }

  /**
   * Queues a settled call (answered, failed, or left unanswered by its session's end) and adds it
   * to its minute's usage rollup; false (and counted) when the queue is full. A call still queued
   * from its request is written once, settled: the queue holds the row itself, not a copy.
   */
  settleToolCall(call: QueuedToolCall): boolean {
    if (!this.queuedCalls.has(call)) {
      // A call already written as pending took its place in the queue at its request: its outcome
      // is never dropped (a full queue would otherwise leave it pending for good).
      if (this.queuedRows >= this.options.queueLimit && !this.writtenPending.has(call)) {
        this.counters.droppedCalls++;
        return false;
      }
      this.enqueueCall(call);
    }
    this.usage.add(call);
    this.schedule();
    return true;
  }

  private enqueueCall(call: QueuedToolCall): void {
    this.toolCalls.push(call);
    this.queuedCalls.add(call);
    this.schedule();
  }

  /** Drops everything queued for a deleted server (its rows' foreign keys are gone). */
  forgetServer(serverId: string): void {
    this.dirty = new Set([...this.dirty].filter((s) => s.row.server_id !== serverId));
    this.toolCalls = this.toolCalls.filter((call) => {
      if (call.server_id !== serverId) return true;
      this.queuedCalls.delete(call);
      return false;
    });
    this.messages = this.messages.filter((m) => this.sessionsOfServer.get(m.session_id) !== serverId);
    this.usage.forgetServer(serverId);
  }


  /** Writes everything queued now, every changed session included (and waits for a flush already running). */
  async flush(): Promise<void> {
    let failures = 0;
    do {
      if (await this.flushOnce(true)) failures = 0;
      else if (++failures > FLUSH_RETRIES) return this.giveUp();
      else {
        this.stopTimer(); // this loop does the retrying now
        await new Promise((resolve) => setTimeout(resolve, RETRY_FIRST_MS * 2 ** (failures - 1)));
      }
    } while (this.hasPending());
  }

  /** An explicit flush found the database unavailable, try after try: what is queued is lost (and counted). */
  private giveUp(): void {
    this.counters.lost += this.messages.length + this.toolCalls.filter((call) => call.status !== 'pending').length;
    this.messages = [];
    this.toolCalls = [];
    this.queuedCalls.clear();
    this.usage.take();
    this.dirty.clear();
    this.stopTimer();
  }

  stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private hasPending(): boolean {
    return this.dirty.size > 0 || this.messages.length > 0 || this.toolCalls.length > 0;
  }

  /**
   * One statement's worth (see maxBatchRows); `all` also writes sessions not yet due (see
   * dueSessions). False when the database was unavailable (the rows are queued again).
   */
  private async flushOnce(all = false): Promise<boolean> {
    while (this.flushing) await this.flushing;
    this.stopTimer();
    if (!this.hasPending()) return true;
    const write = this.writeQueued(all);
    this.flushing = write.then(() => undefined).finally(() => (this.flushing = undefined));
    return write;
  }

  /**
   * The changed sessions this write takes. A new or ended session is written at once (its calls
   * need its row, the stream announces it); an active one's counts and last activity at most once
   * per SESSION_REFRESH_MS: every message marks its session changed, and rewriting each active
   * session's row with every 50 ms batch cost the database more than the calls themselves.
   */
  private dueSessions(all: boolean): QueuedSession[] {
    const now = Date.now();
    const due = [...this.dirty].filter(
      (session) => all || !session.announced || session.row.status === 'ended' || now - (this.sessionWrittenAt.get(session) ?? 0) >= SESSION_REFRESH_MS,
    );
    for (const session of due) {
      this.dirty.delete(session);
      this.sessionWrittenAt.set(session, now);
    }
    return due;
  }

  private schedule(): void {
    // Waiting for an unavailable database: its retry timer is set, and a full batch waits too.
    if (Date.now() < this.retryAt) return;
    if (this.queuedRows >= (this.options.batchRows ?? 2000) && !this.flushing) {
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

  private async writeQueued(all: boolean): Promise<boolean> {
    const sessions = this.dueSessions(all);
    // At most maxBatchRows messages and calls per transaction: one transaction holds the database
    // (PGlite serves one statement at a time, even from its worker thread), so a huge one would
    // make the API's reads wait behind it.
    const limit = this.options.maxBatchRows ?? 500;
    const taken = this.toolCalls.splice(0, Math.max(1, limit >> 1));
    const batch: Batch = {
      sessions: sessions.map((s) => ({ ...s.row })),
      messages: this.messages.splice(0, limit),
      // Copies: a call taken here may be answered while its write runs; the answer queues it again.
      toolCalls: taken.map((call) => {
        this.queuedCalls.delete(call);
        if (call.status === 'pending') this.writtenPending.add(call);
        return { ...call };
      }),
      usage: this.usage.take(),
    };
    if (sessions.length === 0 && batch.messages.length === 0 && batch.toolCalls.length === 0 && batch.usage.length === 0) {
      // Only sessions not yet due: nothing to write; look again with the next tick.
      this.startTimer(this.options.flushMs);
      return true;
    }
    const started = performance.now();
    let stored = batch;
    try {
      await writeBatch(this.db, batch);
      this.lastFlushMs = Math.round(performance.now() - started);
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      if (isTransientWriteError(error)) {
        this.options.log?.error({ err: error }, 'recorder flush failed: the database is unavailable, the batch waits for it');
        this.putBack(taken, batch, sessions);
        return false;
      }
      // The rows themselves: one refused row must not take the rest of the batch with it.
      this.options.log?.error({ err: error }, 'recorder flush failed: writing its rows one by one');
      const outcome = await writeRowByRow(this.db, batch);
      this.counters.lost += outcome.lost;
      stored = { ...batch, messages: batch.messages.filter((m) => !outcome.refused.has(m)), toolCalls: batch.toolCalls.filter((c) => !outcome.refused.has(c)) };
    }
    this.retryMs = 0;
    this.retryAt = 0;
    this.counters.flushes++;
    this.counters.sessions += stored.sessions.length;
    this.counters.messages += stored.messages.length;
    this.counters.toolCalls += stored.toolCalls.filter((call) => call.status !== 'pending').length;
    try {
      for (const ended of announceStored(this.bus, sessions, stored)) this.sessionsOfServer.delete(ended);
    } finally {
      this.scheduleAfterWrite(limit);
    }
    return true;
  }

  /** A batch the database could not take now goes back to the front of the queue, to be tried again after a pause. */
  private putBack(taken: QueuedToolCall[], batch: Batch, sessions: QueuedSession[]): void {
    this.messages = batch.messages.concat(this.messages);
    // A call answered during the write is queued again already, in its newer state.
    const back = taken.filter((call) => !this.queuedCalls.has(call));
    for (const call of back) this.queuedCalls.add(call);
    this.toolCalls = back.concat(this.toolCalls);
    this.usage.putBack(batch.usage);
    for (const session of sessions) {
      this.dirty.add(session);
      this.sessionWrittenAt.delete(session);
    }
    this.retryMs = Math.min(this.retryMs ? this.retryMs * 2 : RETRY_FIRST_MS, RETRY_MAX_MS);
    this.retryAt = Date.now() + this.retryMs;
    this.startTimer(this.retryMs);
  }

  /**
   * What arrived while a write ran waits for the next timer, so a steady stream is written in
   * batches of flushMs (not in one small batch per write, which costs the database a statement's
   * fixed price every few calls). More than one write's worth of rows is a backlog: the next write
   * starts at once (on the next turn of the event loop, so requests interleave).
   */
  private scheduleAfterWrite(limit: number): void {
    if (this.timer || !this.hasPending()) return;
    const backlog = this.messages.length >= limit || this.toolCalls.length >= limit >> 1;
    this.startTimer(backlog ? 0 : this.options.flushMs);
  }
}
