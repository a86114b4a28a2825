import { storableText } from '../db/storable';
import type { JsonRpcMessage } from '../proxy/jsonRpc';
import type { SeenMessage } from './callSettling';
import { estimateTokens, storedValue, toolCallError } from './payload';
import type { QueuedToolCall } from './rows';
import type { StoredTaskOutcome } from './storedTaskSettle';
import type { TaskState, TaskStatus } from './taskShapes';

// What the recorder keeps of a task open on this instance, and where the changes of its call go
// (taskCalls.ts holds the open tasks and decides what moves them), and how one ends or moves on.

export interface OpenTask<S> {
  call: QueuedToolCall;
  /** The session of the tools/call (its counts count the call). */
  session: S;
  startedMs: number;
  /** The last message about the task (an answer naming it, a status). */
  lastNewsMs: number;
  /** When the server stops keeping the task (its ttl from its creation), if it said. */
  expiresMs: number | null;
  /** When a `completed` status was first seen: the call's end, its result still to come. */
  completedMs: number | null;
  /** The keys of the input requests the task waits on, as its last `input_required` status listed them. */
  awaitedInputs: Set<string> | null;
}

/** Where the calls of tasks go once changed or settled. */
export interface TaskCallSink<S> {
  /** An open call changed (its task id, its status): written again, still pending. */
  update(call: QueuedToolCall): void;
  /** A call settled here, not by an answer of its own session (that one is the answer's call). */
  settle(call: QueuedToolCall, session: S): void;
  /**
   * A call ended here with no answer (the sweep), which another instance may have ended first:
   * `ended` is its end on a copy, the call still open (storedCallEnd.ts).
   */
  expire(ended: QueuedToolCall, call: QueuedToolCall, session: S): void;
  /** A task not open here: its stored call, if still open, ends so. */
  settleStored(serverId: string, taskId: string, outcome: StoredTaskOutcome): void;
}

/** Open task calls at most (beyond it a task's answer settles its call as before). */
export const MAX_OPEN_TASKS = 10_000;

export const taskKey = (serverId: string, taskId: string) => `${serverId}\u0001${storableText(taskId)}`;

export function endedMessage(task: TaskState): string {
  const said = task.statusMessage === null ? '' : `: ${storableText(task.statusMessage)}`.slice(0, 2000);
  return task.status === 'failed' ? `The task failed${said}` : `Cancelled${said}`;
}

/**
 * The stored end of a task open on no instance here, as the answer that ends it gives it (a
 * tasks/result answer, an end inlined in a tasks/get answer or a notifications/tasks, whose
 * `taskStatus` it carries): its outcome, and its text kept as the call's answer.
 */
export function endingAnswer(answer: JsonRpcMessage, seen: SeenMessage, taskStatus?: TaskStatus): StoredTaskOutcome {
  const error = toolCallError(answer);
  return {
    status: error === null ? 'ok' : 'error',
    errorMessage: error === null ? null : storableText(error),
    taskStatus: taskStatus ?? (error === null ? 'completed' : 'failed'),
    endedAt: seen.at,
    response: { payload: seen.payload.text, kind: seen.kind, truncated: seen.payload.truncated, bytes: seen.sizeBytes },
    result:
      seen.kind === 'error' && !seen.payload.truncated
        ? { error: answer.error }
        : storedValue(seen.payload, answer.result),
  };
}

/** Ends a call with no answer of its own at `endedMs` (its outcome set by the caller). */
export function endWithoutAnswer(call: QueuedToolCall, startedMs: number, endedMs: number): void {
  call.ended_at = new Date(endedMs).toISOString();
  call.duration_ms = Math.max(0, Math.round(endedMs - startedMs));
  call.tokens_estimate = estimateTokens(call.request_bytes);
}

/**
 * A tasks/update answer (2026-07-28): the client answered input requests of the task. An
 * acknowledgement moves an `input_required` task on to `working` once every request it waits on
 * (as its last status listed them) is answered — a partial set leaves it waiting, as the
 * extension says. An error answer moves nothing: the input was not taken, and the error is a
 * message of its session, in its place, as an error answer to tasks/get is. A later status from
 * the server (a poll, a notification) wins. True when the call's task status moved.
 */
export function inputAnswered<S>(open: OpenTask<S>, answer: JsonRpcMessage, inputs: readonly string[]): boolean {
  const { call } = open;
  if ((answer.error !== undefined && answer.error !== null) || call.task_status !== 'input_required') return false;
  for (const key of inputs) open.awaitedInputs?.delete(key);
  if (open.awaitedInputs && open.awaitedInputs.size > 0) return false;
  open.awaitedInputs = null;
  call.task_status = 'working';
  return true;
}
