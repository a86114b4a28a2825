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

  /** Queues a finished call and adds it to its minute's usage rollup; false (and counted) when full. */
  pushToolCall(call: QueuedToolCall): boolean {
    if (this.queuedRows >= this.options.queueLimit) {
      this.counters.droppedCalls++;
      return false;
    }
    this.toolCalls.push(call);
    const bucket = new Date(Math.floor(Date.parse(call.ended_at ?? call.started_at) / 60_000) * 60_000).toISOString();
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
    this.schedule();
    return true;
  }

  /** Drops everything queued for a deleted server (its rows' foreign keys are gone). */
  forgetServer(serverId: string): void {
    this.dirty = new Set([...this.dirty].filter((s) => s.row.server_id !== serverId));
    this.toolCalls = this.toolCalls.filter((c) => c.server_id !== serverId);
    this.messages = this.messages.filter((m) => this.sessionsOfServer.get(m.session_id) !== serverId);
    for (const [key, usage] of this.usage) if (usage.server_id === serverId) this.usage.delete(key);
  }


  /** Writes everything queued now (and waits for a flush already running). */
  async flush(): Promise<void> {
    do await this.flushOnce();
    while (this.hasPending());
  }

  stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private hasPending(): boolean {
    return this.dirty.size > 0 || this.messages.length > 0 || this.toolCalls.length > 0;
  }

  /** One transaction's worth (see maxBatchRows). */
  private async flushOnce(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.stopTimer();
    if (!this.hasPending()) return;
    this.flushing = this.writeQueued().finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  private schedule(): void {
    if (this.queuedRows >= (this.options.batchRows ?? 2000) && !this.flushing) {
      void this.flushOnce();
      return;
    }
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flushOnce().then(() => {
        if (this.hasPending()) this.schedule();
      });
    }, this.options.flushMs);
  }

  private async writeQueued(): Promise<void> {
    const sessions = [...this.dirty];
    // At most maxBatchRows messages and calls per transaction: one transaction holds the database
    // (PGlite serves one statement at a time, even from its worker thread), so a huge one would
    // make the API's reads wait behind it.
    const limit = this.options.maxBatchRows ?? 500;
    const batch: Batch = {
      sessions: sessions.map((s) => ({ ...s.row })),
      messages: this.messages.splice(0, limit),
      toolCalls: this.toolCalls.splice(0, Math.max(1, limit >> 1)),
      usage: [...this.usage.values()],
    };
    this.dirty = new Set();
    this.usage = new Map();
    const started = performance.now();
    try {
      await writeBatch(this.db, batch);
      this.counters.flushes++;
      this.counters.sessions += batch.sessions.length;
      this.counters.messages += batch.messages.length;
      this.counters.toolCalls += batch.toolCalls.length;
      this.lastFlushMs = Math.round(performance.now() - started);
    } catch (error) {
      // Not retried: a poisoned batch must not block the ones after it.
      this.counters.lost += batch.messages.length + batch.toolCalls.length;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.options.log?.error({ err: error }, 'recorder flush failed');
      return;
    }
    this.announce(sessions, batch);
    if (this.queuedRows > 0 && !this.timer) {
      // The rest of a large backlog: next turn of the event loop, so requests interleave.
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flushOnce();
      }, 0);
    }
  }

  private announce(sessions: QueuedSession[], batch: Batch): void {
    sessions.forEach((session, i) => {
      if (session.announced) return;
      session.announced = true;
      this.bus.publish(session.row.workspace_id, { type: 'session_started', data: toSessionDto({ ...batch.sessions[i], status: 'active', ended_at: null }) });
    });
    for (const call of batch.toolCalls) this.bus.publish(call.workspace_id, { type: 'tool_call', data: toToolCallDto(call) });
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
