import { filterBatch, type Batch } from './batchWriter';
import type { QueuedMessage, QueuedSession, QueuedToolCall } from './rows';
import { UsageRollup } from './usageRollup';
import { TrafficRollup } from './trafficRollup';
import { WaitingRows } from './waitingRows';

// The rows waiting for the database: changed sessions, messages, tool calls (pending or settled)
// and the usage rollup. Bounded: beyond `queueLimit` messages + calls, new ones are dropped and
// counted. A write takes a batch and, when the database could not take it, puts it back in front.

/** An active session's row (counts, last activity) is rewritten at most this often. */
const SESSION_REFRESH_MS = 1000;

export interface QueueCounters {
  droppedMessages: number;
  droppedCalls: number;
}

/** A batch taken for one write, with what is needed to put it back. */
export interface TakenBatch {
  batch: Batch;
  /** `sessions[i]` is the live session `batch.sessions[i]` copies. */
  sessions: QueuedSession[];
  /** `calls[i]` is the queued call `batch.toolCalls[i]` copies. */
  calls: QueuedToolCall[];
}

export class RowQueue {
  private dirty = new Set<QueuedSession>();
  private messages: QueuedMessage[] = [];
  private toolCalls: QueuedToolCall[] = [];
  /** The calls in `toolCalls`: a call queued at its request is not queued again at its answer. */
  private readonly queuedCalls = new Set<QueuedToolCall>();
  /** Calls written while still pending (their settlement must reach the database). */
  private readonly writtenPending = new WeakSet<QueuedToolCall>();
  /** When each active session's row was last taken into a write (see takeSessions). */
  private readonly sessionWrittenAt = new WeakMap<QueuedSession, number>();
  readonly usage = new UsageRollup();
  /** The analytics rollup: measured and summed when a write takes its batch (trafficRollup.ts). */
  readonly traffic = new TrafficRollup();
  /** Session id → server id of sessions not yet written as ended (messages carry no server id). */
  private readonly sessionsOfServer = new Map<string, string>();
  /** Servers deleted while this process runs: rows of theirs are not put back after a failed write. */
  private readonly forgottenServers = new Set<string>();
  /** Rows waiting here per session (its end is announced after them) and per workspace (fair shares). */
  private readonly waiting = new WaitingRows();

  constructor(
    private readonly queueLimit: number,
    private readonly counters: QueueCounters,
  ) {}

  get size(): number {
    return this.messages.length + this.toolCalls.length;
  }

  get hasRows(): boolean {
    return this.dirty.size > 0 || this.messages.length > 0 || this.toolCalls.length > 0 || this.usage.size > 0;
  }

  /** More than one write's worth waits (`limit` as for take). */
  isBacklog(limit: number): boolean {
    return this.messages.length >= limit || this.toolCalls.length >= limit >> 1;
  }

  /** The session's row changed: it is written (upserted) with a coming batch. Never dropped. */
  markDirty(session: QueuedSession): void {
    this.dirty.add(session);
    this.sessionsOfServer.set(session.row.id, session.row.server_id);
    this.traffic.noteSession(session);
  }

  /** A tools/list answer reached the session's agent (its definitions are measured with the next write). */
  noteToolsListed(session: QueuedSession, result: unknown, at: string): void {
    this.traffic.noteToolsListed(session, result, at);
  }

  /** Queues a message; false (and counted) when the queue is full. */
  pushMessage(message: QueuedMessage): boolean {
    if (!this.hasRoomFor(message.workspace_id)) {
      this.counters.droppedMessages++;
      return false;
    }
    this.messages.push(message);
    this.waiting.count(message, 1);
    return true;
  }

  /**
   * Queues a call whose request was just seen, so a slow call's request is stored (and replayable)
   * before its answer. Not counted as dropped when the queue is full: its settlement queues it again.
   */
  pushToolCall(call: QueuedToolCall): boolean {
    if (this.queuedCalls.has(call) || !this.hasRoomFor(call.workspace_id)) return false;
    this.enqueueCall(call);
    return true;
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
      if (!this.hasRoomFor(call.workspace_id) && !this.writtenPending.has(call)) {
        this.counters.droppedCalls++;
        return false;
      }
      this.enqueueCall(call);
    }
    this.usage.add(call);
    this.traffic.add(call);
    return true;
  }

  /** Drops everything queued for a deleted server (its rows' foreign keys are gone); returns the rows dropped. */
  forgetServer(serverId: string): object[] {
    const dropped: object[] = [];
    this.forgottenServers.add(serverId);
    this.dirty = new Set(
      [...this.dirty].filter((s) => {
        if (s.row.server_id !== serverId) return true;
        dropped.push(s);
        return false;
      }),
    );
    this.toolCalls = this.toolCalls.filter((call) => {
      if (call.server_id !== serverId) return true;
      this.queuedCalls.delete(call);
      this.waiting.count(call, -1);
      dropped.push(call);
      return false;
    });
    this.messages = this.messages.filter((m) => {
      if (this.sessionsOfServer.get(m.session_id) !== serverId) return true;
      this.waiting.count(m, -1);
      dropped.push(m);
      return false;
    });
    this.usage.forgetServer(serverId);
    this.traffic.forgetServer(serverId);
    return dropped;
  }

  /** When the oldest message or call waiting here was recorded (ms), or null when none waits. */
  oldestAtMs(): number | null {
    const times = [this.messages.at(0)?.created_at, this.toolCalls.at(0)?.started_at]
      .filter((t): t is string => t !== undefined)
      .map(Date.parse);
    return times.length > 0 ? Math.min(...times) : null;
  }

  /** Whether messages or calls of the session still wait here (its end is announced after them). */
  holdsRowsOf(sessionId: string): boolean {
    return this.waiting.ofSession(sessionId);
  }

  /** A session's end was announced: it has no more rows to come. */
  sessionDone(sessionId: string): void {
    this.sessionsOfServer.delete(sessionId);
    this.traffic.forgetSession(sessionId);
  }

  /**
   * One write's rows: at most `limit` messages and half as many calls, the usage rollup, and the
   * changed sessions that are due (`all`: every one). Rows are copies where the live object may
   * change while the write runs (an answer queues its call again): sessions and pending calls.
   */
  take(limit: number, all: boolean): TakenBatch {
    // First the analytics work: it sets the calls' token counts and the sessions' sums, which the
    // copies below carry into this write.
    const measured = this.traffic.take();
    for (const session of measured.touchedSessions) this.dirty.add(session);
    const sessions = this.takeSessions(all);
    const calls = this.toolCalls.splice(0, Math.max(1, limit >> 1));
    const messages = this.messages.splice(0, limit);
    for (const message of messages) this.waiting.count(message, -1);
    const batch: Batch = {
      sessions: sessions.map((s) => ({ ...s.row })),
      messages,
      toolCalls: calls.map((call) => {
        this.queuedCalls.delete(call);
        this.waiting.count(call, -1);
        const writtenBefore = this.writtenPending.has(call);
        if (call.status !== 'pending') {
          // A settled call never changes again (its token counts are set above, by the traffic's
          // take): the write takes the row itself, not a copy of its 35 fields (issue 39).
          call.writtenBefore = writtenBefore;
          return call;
        }
        this.writtenPending.add(call);
        return { ...call, writtenBefore };
      }),
      usage: this.usage.take(),
      traffic: measured.traffic,
    };
    return { batch, sessions, calls };
  }

  /**
   * The rows of `unwritten` (all or part of `taken.batch`) go back in front of the queue, except
   * those of a server deleted meanwhile. A call answered during the write is queued again already,
   * in its newer state.
   */
  putBack(unwritten: Batch, taken: TakenBatch): void {
    const kept = (serverId: string | undefined) => serverId === undefined || !this.forgottenServers.has(serverId);
    const messagesBack = unwritten.messages.filter((m) => kept(this.sessionsOfServer.get(m.session_id)));
    for (const message of messagesBack) this.waiting.count(message, 1);
    this.messages = messagesBack.concat(this.messages);
    const left = new Set<unknown>(unwritten.toolCalls);
    const back = taken.calls.filter(
      (call, i) => left.has(taken.batch.toolCalls[i]) && !this.queuedCalls.has(call) && kept(call.server_id),
    );
    for (const call of back) {
      this.queuedCalls.add(call);
      this.waiting.count(call, 1);
    }
    this.toolCalls = back.concat(this.toolCalls);
    this.usage.putBack(unwritten.usage.filter((usage) => kept(usage.server_id)));
    this.traffic.putBack(unwritten.traffic ?? null, kept);
    const sessionsLeft = new Set<unknown>(unwritten.sessions);
    taken.sessions.forEach((session, i) => {
      if (!sessionsLeft.has(taken.batch.sessions[i]) || !kept(session.row.server_id)) return;
      this.dirty.add(session);
      this.sessionWrittenAt.delete(session);
    });
  }

  /** A taken batch without the rows of servers deleted since (a batch waiting to be written again). */
  withoutForgotten(taken: TakenBatch): TakenBatch {
    if (this.forgottenServers.size === 0) return taken;
    return filterTaken(taken, (row) => !this.isOfForgottenServer(row));
  }

  /** Whether a queued row belongs to a server deleted since it was queued. */
  isOfForgottenServer(row: object): boolean {
    if (this.forgottenServers.size === 0) return false;
    const serverId =
      'server_id' in row ? (row.server_id as string) : this.sessionsOfServer.get((row as QueuedMessage).session_id);
    return serverId !== undefined && this.forgottenServers.has(serverId);
  }

  /** Empties the queue; returns how many messages and settled calls that drops. */
  dropAll(): number {
    const dropped = this.messages.length + this.toolCalls.filter((call) => call.status !== 'pending').length;
    this.messages = [];
    this.toolCalls = [];
    this.queuedCalls.clear();
    this.waiting.clear();
    this.usage.take();
    this.traffic.clear();
    this.dirty.clear();
    return dropped;
  }

  private enqueueCall(call: QueuedToolCall): void {
    this.toolCalls.push(call);
    this.queuedCalls.add(call);
    this.waiting.count(call, 1);
  }

  private hasRoomFor(workspaceId: string): boolean {
    return this.waiting.roomFor(workspaceId, this.size, this.queueLimit);
  }

  /**
   * The changed sessions this write takes. A new or ended session is written at once (its calls
   * need its row, the stream announces it); an active one's counts and last activity at most once
   * per SESSION_REFRESH_MS: every message marks its session changed, and rewriting each active
   * session's row with every 50 ms batch cost the database more than the calls themselves.
   */
  private takeSessions(all: boolean): QueuedSession[] {
    const now = Date.now();
    // One row per session id in a write: an agent that goes on with a session it deleted brings
    // the ended row back as a second (adopted) copy, and one upsert statement may not touch a row
    // twice (PostgreSQL 21000). The second copy waits for the next write, merged like any other.
    const ids = new Set<string>();
    const due = [...this.dirty].filter((session) => {
      const isDue =
        all ||
        !session.announced ||
        session.row.status === 'ended' ||
        now - (this.sessionWrittenAt.get(session) ?? 0) >= SESSION_REFRESH_MS;
      if (!isDue || ids.has(session.row.id)) return false;
      ids.add(session.row.id);
      return true;
    });
    for (const session of due) {
      this.dirty.delete(session);
      this.sessionWrittenAt.set(session, now);
    }
    return due;
  }
}

/** The taken batch's rows that `keep` (a pure test) keeps, with the sessions and calls they copy still aligned. */
export function filterTaken(taken: TakenBatch, keep: (row: object) => boolean): TakenBatch {
  return {
    batch: filterBatch(taken.batch, keep),
    sessions: taken.sessions.filter((_, i) => keep(taken.batch.sessions[i])),
    calls: taken.calls.filter((_, i) => keep(taken.batch.toolCalls[i])),
  };
}
