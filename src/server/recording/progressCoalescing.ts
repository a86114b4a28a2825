import type { MessageDirection } from '../../contract/sessions';
import { idKey, type JsonRpcId, type JsonRpcMessage } from '../proxy/jsonRpc';

// A progress stream (`notifications/progress` with one progressToken) is stored as its first and
// its last notification, the last one's row carrying the stream's count: a tool reporting progress
// every few milliseconds, or a client flooding progress notifications, costs two rows, not one per
// message. The stream closes when the request that asked for it (its `_meta.progressToken`) is
// answered, when its session ends, or after 10 s without a new notification.

export interface HeldNotification {
  direction: MessageDirection;
  message: JsonRpcMessage;
  sizeBytes: number;
  rawText: string | undefined;
  seq: number;
  at: string;
  nowMs: number;
}

export interface ProgressRun {
  /** Notifications seen; 0 until the first one is stored. */
  count: number;
  /** When the latest one arrived. */
  updatedMs: number;
  last: HeldNotification | null;
}

export interface ProgressRuns {
  runs: Map<string, ProgressRun>;
  /** `${request direction}:${id}` → the run its progress token opens. */
  byRequest: Map<string, string>;
}

/** Runs held per session at most; past it the oldest is closed (a hostile client cycling tokens). */
const MAX_RUNS_PER_SESSION = 1_000;

interface SessionWithRuns {
  progress?: ProgressRuns;
}

const opposite = (direction: MessageDirection): MessageDirection =>
  direction === 'client_to_server' ? 'server_to_client' : 'client_to_server';
const tokenOf = (value: unknown): string | null =>
  typeof value === 'string' ? `s:${value}` : typeof value === 'number' ? `n:${value}` : null;

function runsOf(session: SessionWithRuns): ProgressRuns {
  if (!session.progress) session.progress = { runs: new Map(), byRequest: new Map() };
  return session.progress;
}

/** The run a progress notification belongs to (opened when new); null for any other message. */
export function progressRunOf(
  session: SessionWithRuns,
  direction: MessageDirection,
  message: JsonRpcMessage,
  nowMs: number,
): ProgressRun | null {
  if (message.method !== 'notifications/progress' || message.id !== undefined) return null;
  const token = tokenOf(message.params?.progressToken);
  if (token === null) return null;
  const { runs } = runsOf(session);
  const key = `${direction}\u0001${token}`;
  let run = runs.get(key);
  if (!run) {
    run = { count: 0, last: null, updatedMs: nowMs };
    runs.set(key, run);
  }
  run.updatedMs = nowMs;
  return run;
}

/** A request asking for progress: its answer closes that progress stream. */
export function noteProgressRequest(
  session: SessionWithRuns,
  direction: MessageDirection,
  message: JsonRpcMessage & { id: JsonRpcId },
): void {
  const meta = message.params?._meta as { progressToken?: unknown } | undefined;
  const token = tokenOf(meta?.progressToken);
  if (token === null) return;
  const { byRequest } = runsOf(session);
  if (byRequest.size >= MAX_RUNS_PER_SESSION) byRequest.delete(byRequest.keys().next().value as string);
  // Progress of a request travels the other way.
  byRequest.set(`${direction}:${idKey(message.id)}`, `${opposite(direction)}\u0001${token}`);
}

/** Closes a run: the held last notification and the count, when there is more than the first. */
export function closeProgressRun(
  session: SessionWithRuns,
  key: string,
): { last: HeldNotification; count: number } | null {
  const runs = session.progress?.runs;
  const run = runs?.get(key);
  if (!runs || !run) return null;
  runs.delete(key);
  return run.last ? { last: run.last, count: run.count } : null;
}

/** A response (of `direction`) answering a request that opened a run: that run closes. */
export function closeRunsAnsweredBy(
  session: SessionWithRuns,
  direction: MessageDirection,
  message: JsonRpcMessage & { id: JsonRpcId },
): { last: HeldNotification; count: number }[] {
  const progress = session.progress;
  if (!progress) return [];
  const requestKey = `${opposite(direction)}:${idKey(message.id)}`;
  const runKey = progress.byRequest.get(requestKey);
  if (runKey === undefined) return [];
  progress.byRequest.delete(requestKey);
  const closed = closeProgressRun(session, runKey);
  return closed ? [closed] : [];
}

/** Runs with nothing new since `quietSinceMs` (all of them with +Infinity), closed; and the oldest past the cap. */
export function closeStaleRuns(
  session: SessionWithRuns,
  quietSinceMs: number,
): { last: HeldNotification; count: number }[] {
  const progress = session.progress;
  if (!progress) return [];
  const closed: { last: HeldNotification; count: number }[] = [];
  const excess = progress.runs.size - MAX_RUNS_PER_SESSION;
  let index = 0;
  for (const [key, run] of progress.runs) {
    if (index++ < excess || run.updatedMs <= quietSinceMs) {
      const done = closeProgressRun(session, key);
      if (done) closed.push(done);
    }
  }
  if (quietSinceMs === Number.POSITIVE_INFINITY) progress.byRequest.clear();
  return closed;
}
