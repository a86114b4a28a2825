import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { EventBus } from '../events/bus';
import { durationHistogramIndex } from '../../contract/sessions';
import { toSessionDto, toToolCallDto } from '../modules/sessions/mappers';
import { writeBatch, type Batch } from './batchWriter';
import type { QueuedMessage, QueuedToolCall, SessionState, UsageIncrement } from './rows';

// The recorder's memory between a message and the database: bounded queues of rows, flushed on a
// timer (or at once when a batch is full) in transactions of limited size, with the live events
// of what was stored published after each write.

/** An active session's row (counts, last activity) is rewritten at most this often. */
const SESSION_REFRESH_MS = 1000;

/** What the queue needs of a session: its row and whether its start/end were announced. */
export interface QueuedSession {
  readonly row: SessionState;
  announced: boolean;
  endAnnounced: boolean;
}

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
  /** The last minute bucket built, and its ISO text (see minuteBucket). */
  private lastMinute = Number.NaN;
  private lastMinuteIso = '';
  /** Calls written while still pending (their settlement must reach the database). */
  private readonly writtenPending = new WeakSet<QueuedToolCall>();
  /** When each active session's row was last taken into a write (see dueSessions). */
  private readonly sessionWrittenAt = new WeakMap<QueuedSession, number>();
  private usage = new Map<string, UsageIncrement>();
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
    this.addUsage(call);
    this.schedule();
    return true;
  }

  private enqueueCall(call: QueuedToolCall): void {
    this.toolCalls.push(call);
    this.queuedCalls.add(call);
    this.schedule();
  }

  private addUsage(call: QueuedToolCall): void {
    const bucket = this.minuteBucket(Math.floor(Date.parse(call.ended_at ?? call.started_at) / 60_000));
    const key = `${call.workspace_id}|${call.server_id}|${call.tool_name}|${bucket}`;
    let usage = this.usage.get(key);
    if (!usage) {
      usage = { workspace_id: call.workspace_id, server_id: call.server_id, tool_name: call.tool_name, bucket, calls: 0, errors: 0, duration_sum_ms: 0, duration_max_ms: 0, duration_hist: new Array(12).fill(0), tokens: 0 };
      this.usage.set(key, usage);
    }
    const duration = call.duration_ms ?? 0;
    usage.calls++;
    if (call.status !== 'ok') usage.errors++;
    usage.duration_sum_ms += duration;
    usage.duration_max_ms = Math.max(usage.duration_max_ms, duration);
    usage.duration_hist[durationHistogramIndex(duration)]++;
    usage.tokens += call.tokens_estimate;
  }

  /** The ISO start of a minute (calls of one flush mostly share one: built once). */
  private minuteBucket(minute: number): string {
    if (minute !== this.lastMinute) {
      this.lastMinute = minute;
      this.lastMinuteIso = new Date(minute * 60_000).toISOString();
    }
    return this.lastMinuteIso;
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
    for (const [key, usage] of this.usage) if (usage.server_id === serverId) this.usage.delete(key);
  }


  /** Writes everything queued now, every changed session included (and waits for a flush already running). */
  async flush(): Promise<void> {
    do await this.flushOnce(true);
    while (this.hasPending());
  }

  stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private hasPending(): boolean {
    return this.dirty.size > 0 || this.messages.length > 0 || this.toolCalls.length > 0;
  }

  /** One statement's worth (see maxBatchRows); `all` also writes sessions not yet due (see dueSessions). */
  private async flushOnce(all = false): Promise<void> {
    while (this.flushing) await this.flushing;
    this.stopTimer();
    if (!this.hasPending()) return;
    this.flushing = this.writeQueued(all).finally(() => (this.flushing = undefined));
    await this.flushing;
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

  private async writeQueued(all: boolean): Promise<void> {
    const sessions = this.dueSessions(all);
    // At most maxBatchRows messages and calls per transaction: one transaction holds the database
    // (PGlite serves one statement at a time, even from its worker thread), so a huge one would
    // make the API's reads wait behind it.
    const limit = this.options.maxBatchRows ?? 500;
    const batch: Batch = {
      sessions: sessions.map((s) => ({ ...s.row })),
      messages: this.messages.splice(0, limit),
      // Copies: a call taken here may be answered while its write runs; the answer queues it again.
      toolCalls: this.toolCalls.splice(0, Math.max(1, limit >> 1)).map((call) => {
        this.queuedCalls.delete(call);
        if (call.status === 'pending') this.writtenPending.add(call);
        return { ...call };
      }),
      usage: [...this.usage.values()],
    };
    this.usage = new Map();
    if (sessions.length === 0 && batch.messages.length === 0 && batch.toolCalls.length === 0 && batch.usage.length === 0) {
      // Only sessions not yet due: nothing to write; look again with the next tick.
      this.startTimer(this.options.flushMs);
      return;
    }
    const started = performance.now();
    try {
      await writeBatch(this.db, batch);
      this.counters.flushes++;
      this.counters.sessions += batch.sessions.length;
      this.counters.messages += batch.messages.length;
      this.counters.toolCalls += batch.toolCalls.filter((call) => call.status !== 'pending').length;
      this.lastFlushMs = Math.round(performance.now() - started);
    } catch (error) {
      // Not retried: a poisoned batch must not block the ones after it.
      this.counters.lost += batch.messages.length + batch.toolCalls.filter((call) => call.status !== 'pending').length;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.options.log?.error({ err: error }, 'recorder flush failed');
      this.scheduleAfterWrite(limit);
      return;
    }
    try {
      this.announce(sessions, batch);
    } finally {
      this.scheduleAfterWrite(limit);
    }
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

  private announce(sessions: QueuedSession[], batch: Batch): void {
    sessions.forEach((session, i) => {
      if (session.announced) return;
      session.announced = true;
      this.bus.publish(session.row.workspace_id, { type: 'session_started', data: toSessionDto({ ...batch.sessions[i], status: 'active', ended_at: null }) });
    });
    // A call is announced once, by the write that stored its outcome.
    for (const call of batch.toolCalls) {
      if (call.status !== 'pending' && this.bus.isListened(call.workspace_id)) this.bus.publish(call.workspace_id, { type: 'tool_call', data: toToolCallDto(call) });
    }
    // The rows as written (the live session may have moved on while the write ran): an end is
    // announced by the batch that stored it, after that batch's calls.
    sessions.forEach((session, i) => {
      const written = batch.sessions[i];
      if (written.status === 'ended' && !session.endAnnounced) {
        session.endAnnounced = true;
        this.bus.publish(written.workspace_id, { type: 'session_ended', data: toSessionDto(written) });
        this.sessionsOfServer.delete(written.id);
      }
    });
  }
}
