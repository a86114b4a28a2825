import { storableText } from '../db/storable';
import type { JsonRpcMessage } from '../proxy/jsonRpc';
import type { PairingSession, TaskAnswers } from './callPairing';
import { abandonCall, settleWithAnswer, type SeenMessage } from './callSettling';
import { storedValue } from './payload';
import type { QueuedToolCall } from './rows';
import {
  endedMessage,
  endWithoutAnswer,
  endingAnswer,
  inputAnswered,
  MAX_OPEN_TASKS,
  taskKey,
  type OpenTask,
  type TaskCallSink,
} from './openTask';
import {
  createdTask,
  inlinedEnd,
  isTerminal,
  listedTasks,
  taskState,
  type TaskState,
  type TaskStatus,
} from './taskShapes';

// Tasks (MCP 2025-11-25, the official SDK's experimental tasks): a tools/call that asked to run as
// a task (`params.task`) may be answered with a CreateTaskResult instead of the tool's result; the
// agent then polls tasks/get, may cancel with tasks/cancel, and asks tasks/result for the tool's
// result, while the server may send notifications/tasks/status. For the user that is one tool
// call: its row stays open (pending, with the task's id and last status) from the request to the
// task's end, and every message between is a message of its session, in its place in the replay.
//
// What ends it: the tasks/result answer (the tool's result, or its error); a `failed` status
// (an error) or a `cancelled` one (tasks/cancel's answer, a status notification). A `completed`
// status marks when the task ended: its duration runs to there, the result still to come from
// tasks/result. An ending answer of the call's own session is the call's answer (its row holds it,
// as for any call); one of another session stays a message there and the call keeps its text.
//
// Open tasks are the recorder's, not a session's: a task outlives the session that started it, and
// may be polled from another session. A task polled on another instance is not open there: its
// end is written to its stored row by task id (storedTaskSettle.ts). A task with no news ends as a
// timeout at the unanswered-call limit, or when its ttl has passed since the last news of it.
//
// The 2026-07-28 tasks extension (taskShapes.ts) inlines a task's end in its tasks/get answer and
// its notifications/tasks: either ends the call with the tool's result or error. Its tasks/update
// gives the input an `input_required` task waits on: acknowledged for every request waited on,
// the task is `working` again.

export class TaskCalls<S extends PairingSession> implements TaskAnswers<S> {
  private readonly open = new Map<string, OpenTask<S>>();
  /**
   * Tasks ended here lately, by when: later news of one (a poll after tasks/cancel, a status after
   * the result) is news of an ended call, not one to look for in the database — where its end may
   * not be written yet.
   */
  private readonly ended = new Map<string, number>();

  constructor(private readonly sink: TaskCallSink<S>) {}

  get size(): number {
    return this.open.size;
  }

  /** The answer to a tools/call that asked for a task: true when it is a task, whose call stays open. */
  opened(session: S, call: QueuedToolCall, result: unknown, startedMs: number, seen: SeenMessage): boolean {
    const task = createdTask(result);
    if (!task || this.open.size >= MAX_OPEN_TASKS) return false;
    const key = taskKey(session.row.server_id, task.taskId);
    const reused = this.open.get(key);
    if (reused) {
      this.close(key, seen.nowMs);
      abandonCall(reused.session, reused.call, seen.at, 'The server gave its task id to another task', 'timeout');
      this.sink.settle(reused.call, reused.session);
    }
    call.task_id = storableText(task.taskId);
    call.task_status = task.status;
    call.task_expires_at = task.ttlMs === null ? null : new Date(seen.nowMs + task.ttlMs).toISOString();
    this.open.set(key, {
      call,
      session,
      startedMs,
      lastNewsMs: seen.nowMs,
      expiresMs: task.ttlMs === null ? null : seen.nowMs + task.ttlMs,
      completedMs: null,
      awaitedInputs: null,
    });
    this.sink.update(call);
    // A task may be created ended already.
    if (isTerminal(task.status)) this.moved(session, task, seen);
    return true;
  }

  /**
   * The answer to the agent's tasks/* request about `taskId` (null: tasks/list). Returns the call
   * it ends when it is the call's answer (an answer of the call's own session): not a message row.
   * `answeredInputs`: the input requests a tasks/update answers (its `inputResponses` keys).
   */
  answered(
    session: S,
    method: string,
    taskId: string | null,
    answer: JsonRpcMessage,
    seen: SeenMessage,
    answeredInputs: readonly string[] = [],
  ): QueuedToolCall | undefined {
    if (method === 'tasks/list') {
      for (const task of listedTasks(answer.result)) this.moved(session, task, seen);
      return undefined;
    }
    if (taskId === null) return undefined;
    if (method === 'tasks/result') return this.resulted(session, taskId, answer, seen);
    if (method === 'tasks/update') {
      this.updated(session, taskId, answer, seen, answeredInputs);
      return undefined;
    }
    // tasks/get and tasks/cancel answer with the task as it stands; a 2026-07-28 tasks/get
    // answer of an ended task inlines the outcome, which ends the call as tasks/result's would.
    const task = taskState(answer.result);
    const ended = method === 'tasks/get' ? inlinedEnd(answer.result) : undefined;
    if (task?.taskId === taskId && ended)
      return this.resulted(session, taskId, { jsonrpc: answer.jsonrpc, id: answer.id, ...ended }, seen, {
        status: task.status,
        answersCall: true,
        task: answer.result,
      });
    if (task?.taskId === taskId) return this.moved(session, task, seen, answer);
    const open = this.open.get(taskKey(session.row.server_id, taskId));
    if (open) open.lastNewsMs = seen.nowMs;
    return undefined;
  }

  /**
   * A status notification of the server (2025-11-25's notifications/tasks/status, 2026-07-28's
   * notifications/tasks): the task's status moves. A 2026-07-28 one carries the whole task, its end
   * inlined as in a tasks/get answer: that ends the call with its result or error. The notification
   * stays a message of its session, in its place; the call keeps its text as its answer, with no
   * place of its own in the replay (it is not an answer to the call's request).
   */
  notified(session: S, params: unknown, seen: SeenMessage): void {
    const task = taskState(params);
    if (!task) return;
    const ended = inlinedEnd(params);
    if (ended)
      this.resulted(session, task.taskId, { jsonrpc: '2.0', ...ended }, seen, {
        status: task.status,
        answersCall: false,
        task: params,
      });
    else this.moved(session, task, seen);
  }

  /**
   * Open tasks with no news past `limitMs`, or past their ttl with no news since, end as timeouts;
   * a completed task whose result was not asked for within `limitMs` ends `ok` as of its end.
   */
  sweep(nowMs: number, limitMs: number): void {
    const at = new Date(nowMs).toISOString();
    for (const [key, open] of this.open) {
      const { call, session } = open;
      // Ended on a copy, its failure counted nowhere yet: another instance may have ended the row.
      const ended = { ...call };
      const counting = { row: { ...session.row } };
      if (open.completedMs !== null) {
        if (nowMs - open.completedMs <= limitMs) continue;
        ended.status = 'ok';
        ended.error_message = null;
        endWithoutAnswer(ended, open.startedMs, open.completedMs);
      } else if (open.expiresMs !== null && nowMs > open.expiresMs && open.lastNewsMs < open.expiresMs) {
        abandonCall(counting, ended, at, 'The task did not end within its ttl', 'timeout');
      } else if (nowMs - open.lastNewsMs > limitMs) {
        abandonCall(counting, ended, at, `No news of the task within ${Math.round(limitMs / 1000)} s`, 'timeout');
      } else continue;
      this.close(key, nowMs);
      this.sink.expire(ended, call, session);
    }
    for (const [key, endedMs] of this.ended) if (nowMs - endedMs > limitMs) this.ended.delete(key);
  }

  /** The ids of the calls of the tasks open here (a sweep of stored open tasks leaves them to this instance). */
  heldCallIds(): string[] {
    return [...this.open.values()].map((open) => open.call.id);
  }

  /** The tool of an open task's call: what a tool's redaction paths apply to in its tasks/result answer. */
  toolOf(serverId: string, taskId: string): string | undefined {
    return this.open.get(taskKey(serverId, taskId))?.call.tool_name;
  }

  /** A deleted server: its open tasks are forgotten (their rows are gone with it). */
  forgetServer(serverId: string): void {
    for (const [key, open] of this.open) if (open.call.server_id === serverId) this.open.delete(key);
  }

  /**
   * A tasks/result answer (or an end inlined in a tasks/get answer or a notification): the tool's
   * final result (or its error) ends the call. `inlined`: the end a 2026-07-28 task carries — its
   * status (`completed` even for an `isError` result: the extension keeps `failed` for JSON-RPC
   * errors), whether the message answers the call (a notification does not, even in the call's
   * own session), and the task it carries — what the call's result reads as once stored
   * (storedCallSql.ts), so the live stream's event shows what the API does.
   */
  private resulted(
    session: S,
    taskId: string,
    answer: JsonRpcMessage,
    seen: SeenMessage,
    inlined?: { status: TaskStatus; answersCall: boolean; task: unknown },
  ): QueuedToolCall | undefined {
    const key = taskKey(session.row.server_id, taskId);
    const open = this.open.get(key);
    if (!open) {
      if (this.ended.has(key)) return undefined;
      this.sink.settleStored(session.row.server_id, storableText(taskId), endingAnswer(answer, seen, inlined?.status));
      return undefined;
    }
    this.close(key, seen.nowMs);
    const inReplay = (inlined?.answersCall ?? true) && open.session === session;
    const { call } = open;
    settleWithAnswer(open.session, call, answer, seen, open.startedMs, open.completedMs ?? seen.nowMs, inReplay);
    if (inlined) {
      call.task_status = inlined.status;
      call.result = storedValue(seen.payload, inlined.task);
    } else if (call.task_status !== 'failed' && call.task_status !== 'cancelled')
      call.task_status = call.status === 'ok' ? 'completed' : 'failed';
    if (inReplay) return call;
    this.sink.settle(call, open.session);
    return undefined;
  }

  /**
   * The task's status as an answer (`answer`: foldable into the call) or a notification gives it.
   * Returns the call when the answer ends it and is its answer.
   */
  private moved(session: S, task: TaskState, seen: SeenMessage, answer?: JsonRpcMessage): QueuedToolCall | undefined {
    const key = taskKey(session.row.server_id, task.taskId);
    const open = this.open.get(key);
    const ends = task.status === 'failed' || task.status === 'cancelled';
    if (!open) {
      if (ends && !this.ended.has(key))
        this.sink.settleStored(session.row.server_id, storableText(task.taskId), {
          status: task.status === 'failed' ? 'error' : 'cancelled',
          errorMessage: endedMessage(task),
          taskStatus: task.status,
          endedAt: seen.at,
          response: null,
          result: null,
        });
      return undefined;
    }
    open.lastNewsMs = seen.nowMs;
    const { call } = open;
    if (task.status === 'input_required') open.awaitedInputs = task.inputKeys && new Set(task.inputKeys);
    if (!ends) {
      if (task.status === 'completed') open.completedMs ??= seen.nowMs;
      if (call.task_status !== task.status) {
        call.task_status = task.status;
        this.sink.update(call);
      }
      return undefined;
    }
    this.close(key, seen.nowMs);
    const inReplay = answer !== undefined && open.session === session;
    if (inReplay) settleWithAnswer(open.session, call, answer, seen, open.startedMs);
    else endWithoutAnswer(call, open.startedMs, seen.nowMs);
    call.task_status = task.status;
    call.status = task.status === 'failed' ? 'error' : 'cancelled';
    call.error_message = endedMessage(task);
    if (task.status === 'failed') open.session.row.error_count++;
    if (inReplay) return call;
    this.sink.settle(call, open.session);
    return undefined;
  }

  /** A tasks/update answer (2026-07-28, see inputAnswered): news of the task, which may move on. */
  private updated(session: S, taskId: string, answer: JsonRpcMessage, seen: SeenMessage, inputs: readonly string[]) {
    const open = this.open.get(taskKey(session.row.server_id, taskId));
    if (!open) return;
    open.lastNewsMs = seen.nowMs;
    if (inputAnswered(open, answer, inputs)) this.sink.update(open.call);
  }

  private close(key: string, nowMs: number): void {
    this.open.delete(key);
    this.ended.delete(key);
    this.ended.set(key, nowMs);
    if (this.ended.size > MAX_OPEN_TASKS) this.ended.delete(this.ended.keys().next().value as string);
  }
}
