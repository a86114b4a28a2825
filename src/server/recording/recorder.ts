import type { Database } from '../db/database';
import type { EventBus } from '../events/bus';
import type { MessageDirection } from '../../contract/sessions';
import type { JsonRpcMessage } from '../proxy/jsonRpc';
import { settleOverdue, settleUnanswered } from './callPairing';
import { forgetStoppedRecorders } from './batchGuard';
import { MessageRecording, type MessageRecordingOptions } from './messageRecording';
import { endOrphanedSessions, orphanCutoff, type OrphanSweepResult } from './orphanSweep';
import { closeStaleRuns } from './progressCoalescing';
import { learnIdentity, sameAgentRun, storableStart, type SessionStart } from './sessionStart';
import { WriteQueue, type WriteQueueOptions } from './writeQueue';
import { recorderStats, type RecorderStats } from './recorderStats';
import { StoredTaskSettles } from './storedTaskSettle';
import { newRecordedSession, OpenSessions, type RecordedSession, type SessionOrigin } from './openSessions';

export type { RecorderStats } from './recorderStats';
export type { RecordedSession, SessionOrigin } from './openSessions';

// The recorder keeps every session, message and tool call the proxy sees, off the hot path:
// `record` only updates memory and queues rows; a timer (or a full batch) writes them in one
// statement; events go to the live stream once their rows are stored. The queue is bounded: when
// full, new messages and calls are dropped and counted, never awaited. This file owns sessions
// (start, inference, idle end; finding them again is openSessions.ts); what a message becomes is
// messageRecording.ts (pairing callPairing.ts, what is stored of a payload payload.ts), the queue
// rowQueue.ts, its writes writeQueue.ts / batchWriter.ts, reading calls storedCallSql.ts.

export interface RecorderOptions extends WriteQueueOptions, MessageRecordingOptions {
  /** A session with a session id ends after this long without traffic (default 30 min). */
  statefulIdleMs?: number;
  /** An inferred (stateless) session ends after this gap; the next message starts a new one (default 5 min). */
  inferredIdleGapMs?: number;
  /** How often sessions left active by an instance that stopped without shutting down are ended (default 5 min; see orphanSweep.ts). */
  orphanSweepMs?: number;
  /** A call with no answer after this long ends as a timeout (default 5 min; docs/sessions.md). */
  unansweredCallMs?: number;
  /** The journal's disk budget, for the health routes. */
  journalMaxBytes?: number;
  now?: () => number;
}

export class Recorder {
  private enabled = true;
  private readonly now: () => number;
  private readonly sessions = new OpenSessions();
  private sweeper: NodeJS.Timeout | undefined;
  private orphanSweeper: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly queue: WriteQueue;
  private readonly messages: MessageRecording;
  private readonly storedTasks: StoredTaskSettles;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly options: RecorderOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.queue = new WriteQueue(db, bus, options);
    this.storedTasks = new StoredTaskSettles(db, options.log, this.queue);
    this.messages = new MessageRecording(this.queue, options, this.storedTasks);
  }

  /** The recorder's clock (ms): the proxy notes when a request arrived with it (see record's `atMs`). */
  clockMs(): number {
    return this.now();
  }

  /** Starts the idle sweep (the app does this; unit tests call sweepIdle() with their own clock). */
  start(sweepEveryMs = 30_000): void {
    this.sweeper = setInterval(() => this.sweepIdle(), sweepEveryMs);
    this.sweeper.unref();
    // Housekeeping: sessions of instances that stopped without shutting down, their batch numbers.
    this.orphanSweeper = setInterval(
      () => {
        this.sweepOrphans().catch((error: unknown) =>
          this.options.log?.error({ err: error }, 'orphaned session sweep failed'),
        );
        forgetStoppedRecorders(this.db).catch((error: unknown) =>
          this.options.log?.error({ err: error }, 'recorder progress cleanup failed'),
        );
      },
      this.options.orphanSweepMs ?? 5 * 60_000,
    );
    this.orphanSweeper.unref();
  }

  /**
   * Ends sessions still active in the database that no instance proxies any more (last activity
   * older than the longest idle limit plus a margin for an owner's own sweep), and tasks no
   * instance holds at their ttl (storedTaskSettle.ts), after their holder's own sweep would have.
   */
  sweepOrphans(): Promise<OrphanSweepResult> {
    const unansweredMs = this.options.unansweredCallMs ?? 5 * 60_000;
    void this.storedTasks.endExpired(new Date(this.now() - unansweredMs), this.messages.tasks.heldCallIds());
    const longestIdleMs = Math.max(
      this.options.statefulIdleMs ?? 30 * 60_000,
      this.options.inferredIdleGapMs ?? 5 * 60_000,
    );
    return endOrphanedSessions(
      this.db,
      orphanCutoff(this.now(), longestIdleMs),
      this.sessions.all().map((session) => session.row.id),
    );
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
  }

  isEnabled(): boolean {
    return this.enabled && !this.closed;
  }

  /**
   * A session another instance started (its sealed id names it): recorded here under the same
   * row, its messages numbered by the same clock. Its row is merged with what the other instance
   * writes (batchWriter.ts: counts never go down, an end stays), never overwritten.
   */
  adoptSession(origin: SessionOrigin, sessionId: string, startedAtMs: number, rawStart: SessionStart): RecordedSession {
    const session = this.startSession(origin, rawStart, { id: sessionId, startedAtMs, adopted: true });
    session.clockSeqBaseMs = startedAtMs;
    session.shared = true;
    return session;
  }

  /** Numbers the session's messages by the clock from its start, so other instances can add to it. */
  shareAcrossInstances(session: RecordedSession): void {
    session.clockSeqBaseMs ??= Date.parse(session.row.started_at);
    session.shared = true;
  }

  startSession(
    origin: SessionOrigin,
    rawStart: SessionStart,
    existing?: { id: string; startedAtMs: number; adopted: boolean },
  ): RecordedSession {
    const session = newRecordedSession(origin, storableStart(rawStart), this.now(), existing);
    this.sessions.add(session);
    this.queue.markDirty(session);
    return session;
  }

  sessionByMcpId(serverId: string, mcpSessionId: string): RecordedSession | undefined {
    return this.sessions.byMcpSessionId(serverId, mcpSessionId);
  }

  attachMcpSessionId(session: RecordedSession, mcpSessionId: string): void {
    if (session.row.mcp_session_id === mcpSessionId) return;
    session.row.mcp_session_id = mcpSessionId;
    this.sessions.attachMcpSessionId(session, mcpSessionId);
    this.queue.markDirty(session);
  }

  /**
   * The session inference rule for traffic without a session id (docs/proxy.md): messages of one
   * agent (its credential fingerprint, `clientKey`) to one server form one session until a gap of
   * `inferredIdleGapMs`, a different trace id (W3C traceparent) or a different client name/version.
   */
  inferSession(origin: SessionOrigin, rawStart: SessionStart): RecordedSession {
    const start = storableStart(rawStart);
    const agent = `${origin.serverId}\u0001${start.clientKey ?? ''}`;
    const current = this.sessions.byAgent(agent);
    const gap = this.options.inferredIdleGapMs ?? 5 * 60_000;
    if (current && this.sessions.has(current)) {
      if (sameAgentRun(current.row, start) && this.now() - current.lastActivityMs <= gap) {
        if (learnIdentity(current.row, start)) this.queue.markDirty(current);
        return current;
      }
      this.endSession(current);
    }
    const session = this.startSession(origin, start);
    this.sessions.setAgentSession(agent, session);
    return session;
  }

  /** A text of a workspace's traffic kept outside the recorder (a request's error, for its span), redacted. */
  redactText(workspaceId: string, text: string): string {
    return this.options.redaction ? this.options.redaction.forWorkspace(workspaceId).redactText(text) : text;
  }

  /**
   * Records one JSON-RPC message. `rawText` is its exact JSON when the body held only it; `size`
   * its bytes, or how to measure them (a batch item: only measured when the message is stored).
   * `atMs`: when the proxy had it, if that was earlier than now (a request whose session is known
   * only from the upstream's answer is recorded then, but a call starts when the agent sent it).
   * `httpTraceparent`: the `traceparent` header of the HTTP request that carried it.
   */
  record(
    session: RecordedSession,
    direction: MessageDirection,
    message: JsonRpcMessage,
    size: number | (() => number),
    rawText?: string,
    atMs?: number,
    httpTraceparent?: string,
  ): void {
    // A large message may wait for its redaction off the event loop (session.recordingBacklog):
    // commitJournal(session) and recorded() wait for it.
    if (!this.isEnabled()) return;
    this.messages.record(session, direction, message, size, rawText, atMs ?? this.now(), httpTraceparent);
  }

  endSession(session: RecordedSession): void {
    if (!this.sessions.has(session)) return;
    // Ended after the messages it had before: a call they open is settled with the session's end.
    const backlog = session.recordingBacklog;
    if (backlog) {
      void backlog.then(() => this.endSession(session));
      return;
    }
    const at = new Date(this.now()).toISOString();
    for (const call of settleUnanswered(session, at, this.messages.rounds)) this.queue.settleToolCall(call);
    for (const closed of closeStaleRuns(session, Number.POSITIVE_INFINITY))
      this.messages.queueClosedRun(session, closed);
    session.row.status = 'ended';
    session.row.ended_at = at;
    this.sessions.remove(session);
    this.queue.markDirty(session);
  }

  /** Ends sessions idle past their limit, and calls unanswered past theirs. */
  sweepIdle(): void {
    const nowMs = this.now();
    const unansweredMs = this.options.unansweredCallMs ?? 5 * 60_000;
    for (const session of this.sessions.all()) {
      if (session.pending.size > 0) {
        const overdue = settleOverdue(session, nowMs, unansweredMs, this.messages.rounds);
        for (const call of overdue) this.queue.settleToolCall(call);
        if (overdue.length > 0) this.queue.markDirty(session);
      }
      const limit = session.inferredIdentity
        ? (this.options.inferredIdleGapMs ?? 5 * 60_000)
        : (this.options.statefulIdleMs ?? 30 * 60_000);
      if (nowMs - session.lastActivityMs > limit) this.endSession(session);
      // A progress stream whose request is never answered is written once it has been quiet a while.
      else for (const closed of closeStaleRuns(session, nowMs - 10_000)) this.messages.queueClosedRun(session, closed);
    }
    // Tasks outlive their sessions: theirs is the same limit, from the last news of each.
    this.messages.tasks.sweep(nowMs, unansweredMs);
  }

  /** A deleted server: forget its sessions and queued rows (their foreign keys are gone). */
  forgetServer(serverId: string): void {
    this.sessions.forgetServer(serverId);
    this.messages.tasks.forgetServer(serverId);
    this.queue.forgetServer(serverId);
  }

  /**
   * Puts what the journal holds so far in the kernel now (one write): the proxy calls it before an
   * answer goes to the agent, so an answered call's request survives a kill of the process. When
   * a message of `session` waits for its redaction off the event loop, the commit is made once the
   * session's messages so far are recorded, and the promise returned resolves then.
   */
  commitJournal(): void;
  commitJournal(session: RecordedSession | undefined): Promise<void> | undefined;
  commitJournal(session?: RecordedSession): Promise<void> | undefined {
    const backlog = session?.recordingBacklog;
    if (backlog) return backlog.then(() => this.commitJournal());
    this.options.journal?.journal.commitNow();
    return undefined;
  }

  /** Seals the journal's segment so what is committed leaves the disk now, not when the segment fills. */
  sealJournal(): void {
    this.options.journal?.journal.commitNow();
    this.options.journal?.journal.sealActive();
  }

  stats(): RecorderStats {
    return recorderStats(this.enabled, this.sessions.size, this.queue, this.options);
  }

  /** Resolves when every message given to record() is recorded (a large one waits for its redaction off the event loop). */
  recorded(): Promise<void> {
    return this.messages.idle();
  }

  /** Writes everything queued now (and waits for a flush already running), after the messages still being redacted. */
  async flush(): Promise<void> {
    await this.messages.idle();
    // With what the recorder's own statements ended (storedTaskSettle.ts).
    await this.storedTasks.idleThenFlush(() => this.queue.flush());
  }

  /** Graceful shutdown: end every open session and write everything. */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.orphanSweeper) clearInterval(this.orphanSweeper);
    // Messages still being redacted are recorded first: nothing the proxy had is lost.
    await this.messages.idle();
    for (const session of this.sessions.all()) this.endSession(session);
    this.closed = true;
    await this.storedTasks.idleThenFlush(() => this.queue.flush(true));
    this.queue.stopTimer();
    // Segments whose rows are all stored are deleted; what the database did not take stays for the next start.
    this.options.journal?.journal.close();
  }
}
