import type { FastifyBaseLogger } from 'fastify';
import type { MessageDirection } from '../../contract/sessions';
import { hasId, messageKind, type JsonRpcMessage } from '../proxy/jsonRpc';
import { messageRow, settleCancelled, settleResponse, trackRequest, type SeenMessage } from './callPairing';
import type { RecordedSession } from './openSessions';
import { storedPayload } from './payload';
import type { StoredTaskSettles } from './storedTaskSettle';
import { StoredInputRounds } from './storedInputRounds';
import type { TaskCalls } from './taskCalls';
import { taskCallsOnQueue } from './queuedTaskCalls';
import { toolOf } from './messageTool';
import { closeRunsAnsweredBy, noteProgressRequest, progressRunOf, type closeProgressRun } from './progressCoalescing';
import type { RecordingBudgets } from './recordingBudget';
import type { OffThreadRedaction, Redacted } from './redaction/redactionThread';
import type { Redactor } from './redaction/redactor';
import type { SessionState } from './rows';
import { nextSeq } from './sessionSeq';
import { answersToolsList } from './toolListCapture';
import type { WriteQueue } from './writeQueue';

// What one JSON-RPC message of a session becomes (recorder.ts decides whether it is recorded at
// all, and when sessions start and end): the session's counts and activity, a call's row (its
// request and its answer pair up: callPairing.ts), a coalesced progress stream
// (progressCoalescing.ts), or a message row of its own within the workspace's budget. What is kept
// of it is what its workspace's redaction rules leave (redaction/): nothing downstream of here —
// the journal, the database, the live stream — ever holds the original. A large message is
// redacted on the redaction thread (redactionThread.ts) and recorded when it answers; its
// session's later messages wait behind it, in order (session.recordingBacklog).

export interface MessageRecordingOptions {
  /** Characters of a message payload kept for replay (default 64 KiB). */
  payloadLimit?: number;
  /** Per-workspace budgets for messages (not calls); none = every message is stored. */
  budgets?: RecordingBudgets;
  /**
   * Each workspace's redactor (docs/security.md): applied to every message before anything of it
   * is kept, so the journal, the database, the live stream and what reads them never see the
   * original. Absent: messages are stored as they came (unit tests of other concerns).
   */
  redaction?: {
    forWorkspace(workspaceId: string): Redactor;
    /** Where large messages are redacted, off the event loop (redactionThread.ts); absent: every message here. */
    offThread?: OffThreadRedaction;
  };
  log?: Pick<FastifyBaseLogger, 'error'>;
}

/** A message whose params, result and error could not be redacted: only what names it is kept. */
function withoutPayload(message: JsonRpcMessage): JsonRpcMessage {
  const kept: JsonRpcMessage = { jsonrpc: '2.0' };
  if (message.id !== undefined) kept.id = message.id;
  if (message.method !== undefined) kept.method = message.method;
  for (const field of ['params', 'result', 'error'] as const)
    if (message[field] !== undefined) kept[field] = '[REDACTED:unprocessable]' as never;
  return kept;
}

/** A task's status from the server: 2025-11-25's notification, or 2026-07-28's (the extension's). */
const isTaskStatus = (method: string | undefined) =>
  method === 'notifications/tasks/status' || method === 'notifications/tasks';

export class MessageRecording {
  /** Messages waiting for their redaction off the event loop (and those of their sessions behind them). */
  private readonly waiting = new Set<Promise<void>>();

  /** Calls answered with a task, open until the task ends (taskCalls.ts): the recorder's, across sessions. */
  readonly tasks: TaskCalls<RecordedSession>;
  /** Multi round-trip calls whose rounds another instance may see (storedInputRounds.ts). */
  readonly rounds: StoredInputRounds;

  constructor(
    private readonly queue: WriteQueue,
    private readonly options: MessageRecordingOptions,
    storedTasks: StoredTaskSettles,
  ) {
    this.tasks = taskCallsOnQueue(queue, storedTasks);
    this.rounds = new StoredInputRounds(queue, storedTasks);
  }

  /**
   * Records one message the proxy had at `nowMs` (see Recorder.record): now (the common case), or
   * — when it waits for its redaction off the event loop, or an earlier message of its session
   * does — once that is done: `session.recordingBacklog` is then set until it is recorded. A
   * session's messages are recorded in the order they came, so a response is never before its request.
   */
  record(
    session: RecordedSession,
    direction: MessageDirection,
    original: JsonRpcMessage,
    size: number | (() => number),
    originalText: string | undefined,
    nowMs: number,
    httpTraceparent: string | undefined,
  ): void {
    const backlog = session.recordingBacklog;
    const waited = backlog
      ? backlog.then(() => this.recordInTurn(session, direction, original, size, originalText, nowMs, httpTraceparent))
      : this.recordInTurn(session, direction, original, size, originalText, nowMs, httpTraceparent);
    if (!waited) return;
    // Never a rejection: what the proxy awaits, and what the session's next messages wait behind.
    const recorded = waited.catch((error: unknown) =>
      this.options.log?.error({ err: error }, 'recording a message that waited for its redaction failed'),
    );
    session.recordingBacklog = recorded;
    this.waiting.add(recorded);
    void recorded.then(() => {
      this.waiting.delete(recorded);
      if (session.recordingBacklog === recorded) session.recordingBacklog = undefined;
    });
  }

  /** Resolves when every message waiting for its redaction is recorded. */
  async idle(): Promise<void> {
    while (this.waiting.size > 0) await Promise.all(this.waiting);
  }

  /** A message whose turn it is: recorded now, or — a large one — once a thread has redacted it. */
  private recordInTurn(
    session: RecordedSession,
    direction: MessageDirection,
    original: JsonRpcMessage,
    size: number | (() => number),
    originalText: string | undefined,
    nowMs: number,
    httpTraceparent: string | undefined,
  ): Promise<void> | undefined {
    const redaction = this.options.redaction;
    const offThread = redaction?.offThread;
    let bytes = size;
    // A notification past its workspace's budget is only counted: nothing to redact.
    if (redaction && offThread && (hasId(original) || !this.options.budgets?.spent(session.row.workspace_id))) {
      bytes = typeof size === 'number' ? size : size();
      let redactor: Redactor | undefined;
      try {
        if (bytes >= offThread.minBytes) redactor = redaction.forWorkspace(session.row.workspace_id);
      } catch {
        // Redacted here instead, where a failure is failed closed (see redacted()).
      }
      // Its tool is known now: every message of its session before it is recorded.
      if (redactor)
        return offThread
          .redact(redactor, original, originalText, toolOf(session, direction, original, this.tasks))
          .catch(() => null)
          .then((redacted) => {
            this.recordNow(session, direction, original, bytes, originalText, nowMs, httpTraceparent, redacted);
          });
    }
    this.recordNow(session, direction, original, bytes, originalText, nowMs, httpTraceparent, undefined);
    return undefined;
  }

  /** `redacted`: what a thread made of it; null when it could not (redacted here), undefined when not asked. */
  private recordNow(
    session: RecordedSession,
    direction: MessageDirection,
    original: JsonRpcMessage,
    size: number | (() => number),
    originalText: string | undefined,
    nowMs: number,
    httpTraceparent: string | undefined,
    redacted: Redacted | null | undefined,
  ): void {
    const at = new Date(nowMs).toISOString();
    const row = session.row;
    row.last_activity_at = at;
    session.lastActivityMs = nowMs;
    row.message_count++;
    // Marked once the message has changed every count (a request adds a call, an answer may add an
    // error): the journal notes the session's counts after it, so a kill -9 just after keeps them all.
    try {
      this.recordRow(session, direction, original, size, originalText, nowMs, at, httpTraceparent, redacted);
    } finally {
      this.queue.markDirty(session);
    }
  }

  private recordRow(
    session: RecordedSession,
    direction: MessageDirection,
    original: JsonRpcMessage,
    size: number | (() => number),
    originalText: string | undefined,
    nowMs: number,
    at: string,
    httpTraceparent: string | undefined,
    redacted: Redacted | null | undefined,
  ): void {
    const row = session.row;
    // A notification of a workspace past its recording budget is counted and nothing more (a
    // flood of them must not cost the recorder what storing them would: docs/proxy.md "Limits").
    if (!hasId(original) && this.options.budgets?.spent(row.workspace_id)) return;
    // Redaction first: from here on only the redacted message exists (its exact text only when
    // nothing was replaced). The byte size stays the size of what travelled.
    // A thread's answer is used as it came (its JSON text with it); without one, redacted here.
    const message = redacted
      ? redacted.changed
        ? redacted.message
        : original
      : this.redacted(session, direction, original);
    const rawText = redacted?.changed ? redacted.text : message === original ? originalText : undefined;
    const kind = messageKind(message);
    const sizeBytes = typeof size === 'number' ? size : size();

    // A progress stream is stored as its first and last notification and its count: the ones
    // between are counted only (a long tool reporting every few ms must not fill the database).
    // Read from the message as it came: its progress token is protocol state, whatever redaction did.
    const run = progressRunOf(session, direction, original, nowMs);
    if (run && run.count > 0) {
      run.count++;
      run.last = { direction, message, sizeBytes, rawText, seq: nextSeq(session, nowMs), at, nowMs };
      return;
    }
    if (run) run.count = 1;
    if (kind === 'request' && hasId(message)) noteProgressRequest(session, direction, message);
    else if (hasId(message))
      for (const closed of closeRunsAnsweredBy(session, direction, message)) this.queueClosedRun(session, closed);

    const payload = storedPayload(message, rawText, this.options.payloadLimit ?? 65_536);
    const seen: SeenMessage = { seq: nextSeq(session, nowMs), kind, payload, sizeBytes, nowMs, at, httpTraceparent };
    // A tools/call request and its response live in the call's row; every other message is a row of its own.
    if (hasId(message)) {
      if (kind === 'request') {
        // A retry of an open call (`continues`) falls through: a message row of its own.
        const { call, abandoned } = trackRequest(session, direction, message, seen);
        for (const settled of abandoned) this.queue.settleToolCall(settled);
        if (call) {
          this.queue.pushToolCall(call);
          return;
        }
      } else {
        const listed = answersToolsList(session, direction, message);
        const call = settleResponse(session, direction, message, seen, this.tasks, this.rounds);
        if (listed) this.queue.noteToolsListed(session, (seen.payload.cleaned ?? message).result, at);
        if (call) {
          this.queue.settleToolCall(call);
          return;
        }
      }
    } else if (message.method === 'notifications/cancelled') {
      const cancelled = settleCancelled(session, direction, message, at);
      if (cancelled) this.queue.settleToolCall(cancelled);
    } else if (isTaskStatus(message.method) && direction === 'server_to_client') {
      this.tasks.notified(session, (seen.payload.cleaned ?? message).params, seen);
    }
    this.pushMessageRow(row, direction, kind, message, seen, null);
  }

  /** The message as its workspace's rules let it be stored (the same object when nothing matched). */
  private redacted(session: RecordedSession, direction: MessageDirection, message: JsonRpcMessage): JsonRpcMessage {
    const redaction = this.options.redaction;
    if (!redaction) return message;
    try {
      return redaction
        .forWorkspace(session.row.workspace_id)
        .redactMessage(message, toolOf(session, direction, message, this.tasks));
    } catch (error) {
      // Fail closed, and never into the proxy's path: the message is kept without its payload.
      this.options.log?.error({ err: error }, 'redaction failed: the message is stored without its payload');
      return withoutPayload(message);
    }
  }

  /** A message that is not part of a call: stored within its workspace's budget. */
  private pushMessageRow(
    row: SessionState,
    direction: MessageDirection,
    kind: string,
    message: JsonRpcMessage,
    seen: SeenMessage,
    progressCount: number | null,
  ): void {
    if (this.options.budgets && !this.options.budgets.admit(row.workspace_id, seen.sizeBytes)) return;
    this.queue.pushMessage(messageRow(row, direction, kind, message, seen, progressCount));
  }

  /** The last notification of a closed progress stream, with the stream's count. */
  queueClosedRun(session: RecordedSession, closed: ReturnType<typeof closeProgressRun>): void {
    if (!closed) return;
    const { last, count } = closed;
    const payload = storedPayload(last.message, last.rawText, this.options.payloadLimit ?? 65_536);
    this.pushMessageRow(
      session.row,
      last.direction,
      'notification',
      last.message,
      { seq: last.seq, kind: 'notification', payload, sizeBytes: last.sizeBytes, nowMs: last.nowMs, at: last.at },
      count,
    );
  }
}
