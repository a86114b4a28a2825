import type { JsonRpcMessage } from '../proxy/jsonRpc';

// What the recorder reads of MCP tasks (specification 2025-11-25, "Tasks"; the official SDK's
// experimental tasks): a task is `{ taskId, status, statusMessage?, createdAt, lastUpdatedAt, ttl,
// pollInterval? }` — under `task` in the CreateTaskResult that answers a task-augmented request, at
// the top level of a tasks/get or tasks/cancel result and of a notifications/tasks/status, in
// `tasks` of a tasks/list result. A tasks/result result carries its task under
// `_meta["io.modelcontextprotocol/related-task"]`.
// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks, SEP-2663) puts the task itself at
// the top level of a task-creating result, marked `resultType: "task"`, names its ttl `ttlMs`, and
// inlines a task's end in its tasks/get answer and its notifications/tasks (`result` when
// completed, `error` when failed); a task in `input_required` lists what it waits on
// (`inputRequests`), which the client answers with tasks/update (`inputResponses`, keyed alike).

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage: string | null;
  /** How long the server keeps the task from its creation (ms); null: no limit given. */
  ttlMs: number | null;
  /** The input requests an `input_required` task lists (2026-07-28 `inputRequests`), null: none listed. */
  inputKeys: string[] | null;
}

const STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** The states a task never leaves. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A task as the wire gives it, or undefined when `value` is not one. */
export function taskState(value: unknown): TaskState | undefined {
  if (!isObject(value) || typeof value.taskId !== 'string' || typeof value.status !== 'string') return undefined;
  if (!STATUSES.has(value.status)) return undefined;
  return {
    taskId: value.taskId,
    status: value.status as TaskStatus,
    statusMessage: typeof value.statusMessage === 'string' && value.statusMessage !== '' ? value.statusMessage : null,
    ttlMs: positive(value.ttl) ?? positive(value.ttlMs),
    inputKeys: inputRequestKeys(value),
  };
}

const positive = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

/** A 2026-07-28 task-creating result (`resultType: "task"`): the server made the call a task unasked. */
export function isTaskResult(result: unknown): boolean {
  return isObject(result) && result.resultType === 'task';
}

/**
 * A 2026-07-28 tasks/get answer (or notifications/tasks params) that ends its task with the outcome inlined: the answer the call
 * ends with (`result` of a completed task, `error` of a failed one), or undefined.
 */
export function inlinedEnd(result: unknown): Pick<JsonRpcMessage, 'result' | 'error'> | undefined {
  if (!isObject(result)) return undefined;
  if (result.status === 'completed' && isObject(result.result)) return { result: result.result };
  if (result.status === 'failed' && isObject(result.error)) return { error: result.error };
  return undefined;
}

/**
 * The keys of the requests a 2026-07-28 task in `input_required` waits on (its `inputRequests`,
 * in a tasks/get answer or a notifications/tasks), or null when it names none.
 */
export function inputRequestKeys(value: unknown): string[] | null {
  if (!isObject(value) || value.status !== 'input_required' || !isObject(value.inputRequests)) return null;
  return Object.keys(value.inputRequests);
}

/** The keys a tasks/update answers (its `inputResponses`). */
export function inputResponseKeys(params: unknown): string[] {
  return isObject(params) && isObject(params.inputResponses) ? Object.keys(params.inputResponses) : [];
}

/** The task a CreateTaskResult names, or undefined when the result is the tool's own. */
export function createdTask(result: unknown): TaskState | undefined {
  if (!isObject(result)) return undefined;
  return taskState(result.task) ?? (isTaskResult(result) ? taskState(result) : undefined);
}

/** The tasks of a tasks/list result. */
export function listedTasks(result: unknown): TaskState[] {
  if (!isObject(result) || !Array.isArray(result.tasks)) return [];
  return result.tasks.map(taskState).filter((task): task is TaskState => task !== undefined);
}
