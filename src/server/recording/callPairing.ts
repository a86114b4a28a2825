import type { MessageDirection } from '../../contract/sessions';
import { storableText } from '../db/storable';
import { hasId, idKey, type JsonRpcMessage } from '../proxy/jsonRpc';
import { estimateTokens, payloadJsonText } from './payload';
import type { QueuedMessage, QueuedToolCall, SessionState } from './rows';
import { abandonCall, settleWithAnswer, type SeenMessage } from './callSettling';
import { calledTool, newCallRow } from './callRow';
import { inputResponseKeys, isTaskResult } from './taskShapes';
import {
  awaitRetry,
  echoedStateKey,
  isInputRequired,
  takeAbandonedRounds,
  takeRetried,
  type InputRoundsSession,
  type JoiningRetry,
  type RoundJoins,
} from './inputRounds';

// Pairing requests with their responses inside one session: what a request was (to recognise its
// answer), the tool call it opened, and what the answer settles. A tools/call request and its
// response are stored in the call's row (not as two `messages` rows), at their place in the session. Everything taken from the wire
// for a text/jsonb column goes through storableText/storableJson: one NUL in an agent's tool name
// or an upstream's error would otherwise fail the whole multi-row insert and lose every other
// call of that batch.

export interface PendingRequest {
  method: string;
  startedMs: number;
  call?: QueuedToolCall;
  /** A tools/call that asked to run as a task (`params.task`): its answer may be a task (taskCalls.ts). */
  taskRequested?: boolean;
  /** A tasks/* request of the agent: the task it names (null: none, as tasks/list); a tasks/update's input responses. */
  task?: { id: string | null; inputs?: string[] };
  /** A retry continuing no call waiting here (inputRounds.ts): its answer looks for the stored one. */
  joining?: JoiningRetry;
}

/** What pairing asks of the recorder's open task calls (taskCalls.ts implements it). */
export interface TaskAnswers<S> {
  /** The answer to a tools/call that asked for a task: true when it is a task (the call stays open). */
  opened(session: S, call: QueuedToolCall, result: unknown, startedMs: number, seen: SeenMessage): boolean;
  /** An answer to a tasks/* request: the call it ends when it is that call's answer (no message row). */
  answered(
    session: S,
    method: string,
    taskId: string | null,
    answer: JsonRpcMessage,
    seen: SeenMessage,
    answeredInputs?: readonly string[],
  ): QueuedToolCall | undefined;
}

/** What pairing needs of a session. */
export interface PairingSession extends InputRoundsSession {
  readonly row: SessionState;
  pending: Map<string, PendingRequest>;
}

const MAX_PENDING_PER_SESSION = 10_000;

type IdMessage = JsonRpcMessage & { id: string | number };

export type { SeenMessage } from './callSettling';

/** A message that is no part of a call, as its own row (`progressCount`: the closed progress stream it ends). */
export function messageRow(
  row: SessionState,
  direction: MessageDirection,
  kind: string,
  message: JsonRpcMessage,
  seen: SeenMessage,
  progressCount: number | null,
): QueuedMessage {
  return {
    workspace_id: row.workspace_id,
    session_id: row.id,
    seq: seen.seq,
    direction,
    kind,
    method: message.method === undefined ? null : storableText(message.method),
    jsonrpc_id: hasId(message) ? storableText(String(message.id)) : null,
    payload: payloadJsonText(seen.payload),
    size_bytes: seen.sizeBytes,
    truncated: seen.payload.truncated,
    created_at: seen.at,
    progress_count: progressCount,
  };
}

export interface TrackedRequest {
  /** The call a tools/call opened. */
  call?: QueuedToolCall;
  /** The request is a later round of a call already open (inputRounds.ts): a message of its own. */
  continues?: QueuedToolCall;
  /** Calls whose answers can no longer be paired (see below), settled as errors. */
  abandoned: QueuedToolCall[];
}

/**
 * Remembers a request so its response can be paired; a tools/call opens a call row. A call is
 * written while it waits, so one that can no longer be answered is settled rather than left
 * pending: the oldest when a session holds too many unanswered requests, and one whose id a new
 * request of the same direction reuses (its answer could not be told from the new one's).
 */
export function trackRequest(
  session: PairingSession,
  direction: MessageDirection,
  message: IdMessage,
  seen: SeenMessage,
): TrackedRequest {
  const { nowMs, at } = seen;
  const method = message.method as string;
  const key = `${direction}:${idKey(message.id)}`;
  const abandoned: QueuedToolCall[] = [];
  const displace = (displacedKey: string, reason: string) => {
    const displaced = session.pending.get(displacedKey);
    session.pending.delete(displacedKey);
    if (displaced?.call) abandoned.push(abandonCall(session, displaced.call, at, reason, 'timeout'));
  };
  if (session.pending.has(key)) displace(key, 'No response recorded: the client reused this request id');
  if (session.pending.size >= MAX_PENDING_PER_SESSION)
    displace(session.pending.keys().next().value as string, 'No response recorded: too many requests awaiting answers');
  const pending: PendingRequest = { method, startedMs: nowMs };
  // What is taken from the message is taken from it as stored (see StoredPayload.cleaned).
  const params = (seen.payload.cleaned ?? message).params ?? {};
  if (method === 'initialize' && direction === 'client_to_server') {
    const clientInfo = params.clientInfo as { name?: unknown; version?: unknown } | undefined;
    if (typeof clientInfo?.name === 'string') session.row.client_name = storableText(clientInfo.name);
    if (typeof clientInfo?.version === 'string') session.row.client_version = storableText(clientInfo.version);
    if (typeof params.protocolVersion === 'string') session.row.protocol_version = storableText(params.protocolVersion);
  }
  const isCall = method === 'tools/call' && direction === 'client_to_server';
  const retried = isCall ? takeRetried(session, calledTool(params), params) : undefined;
  if (retried) {
    // The same logical call: its row waits for this request's answer, timed from the first round.
    session.pending.set(key, { method, startedMs: retried.startedMs, call: retried.call });
    return { continues: retried.call, abandoned };
  }
  // A retry continuing no call waiting here may continue one stored by another instance (inputRounds.ts).
  const echoed = isCall ? echoedStateKey(params) : null;
  if (echoed !== null) {
    // A retry of a call waiting elsewhere (another instance, or before a restart): a message here;
    // its answer decides whether it continues that call or is one of its own (storedInputRounds.ts).
    pending.joining = { call: newCallRow(session.row, message, params, seen), stateKey: echoed };
    session.pending.set(key, pending);
    return { abandoned };
  }
  // The agent asks about a task of the server's (MCP 2025-11-25 tasks): its answer moves that task's call.
  if (method.startsWith('tasks/') && direction === 'client_to_server')
    pending.task = {
      id: typeof params.taskId === 'string' ? params.taskId : null,
      inputs: method === 'tasks/update' ? inputResponseKeys(params) : undefined,
    };
  if (isCall) {
    pending.taskRequested = typeof params.task === 'object' && params.task !== null;
    session.row.call_count++;
    pending.call = newCallRow(session.row, message, params, seen);
  }
  session.pending.set(key, pending);
  return { call: pending.call, abandoned };
}

/**
 * Pairs a response with its request; returns the tool call it completes, if any. `tasks`: the
 * recorder's open task calls, which an answer to a task-augmented tools/call opens and the answers
 * to tasks/* requests move (taskCalls.ts); without them a task's answer settles its call.
 */
export function settleResponse<S extends PairingSession>(
  session: S,
  direction: MessageDirection,
  message: IdMessage,
  seen: SeenMessage,
  tasks?: TaskAnswers<S>,
  rounds?: RoundJoins<S>,
): QueuedToolCall | undefined {
  const { nowMs } = seen;
  const requestDirection = direction === 'server_to_client' ? 'client_to_server' : 'server_to_client';
  const key = `${requestDirection}:${idKey(message.id)}`;
  const pending = session.pending.get(key);
  if (!pending) return undefined;
  session.pending.delete(key);
  if (pending.method === 'initialize' && message.result) {
    const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
    if (typeof version === 'string') session.row.protocol_version = storableText(version);
  }
  const stored = seen.payload.cleaned ?? message;
  if (pending.task) return tasks?.answered(session, pending.method, pending.task.id, stored, seen, pending.task.inputs);
  if (pending.joining) {
    rounds?.joined(session, pending.joining, stored, seen, pending.startedMs);
    return undefined;
  }
  const call = pending.call;
  if (!call) return undefined;
  // An interim answer (2026-07-28 input_required): the call stays open for the client's retry,
  // and this answer is a message of the session (inputRounds.ts).
  if (isInputRequired(stored.result) && awaitRetry(session, call, stored.result, pending.startedMs, nowMs)) {
    rounds?.awaiting(call);
    return undefined;
  }
  // A task in place of the tool's result: the call stays open until the task ends (taskCalls.ts).
  const mayBeTask = pending.taskRequested === true || isTaskResult(stored.result);
  if (mayBeTask && tasks?.opened(session, call, stored.result, pending.startedMs, seen)) return undefined;
  settleWithAnswer(session, call, stored, seen, pending.startedMs);
  return call;
}

/**
 * A `notifications/cancelled` (MCP: the sender no longer wants the request's answer): the call it
 * names ends as `cancelled`, with the reason given, not later as a timeout. Returns that call.
 */
export function settleCancelled(
  session: PairingSession,
  direction: MessageDirection,
  message: JsonRpcMessage,
  at: string,
): QueuedToolCall | undefined {
  const params = (message.params ?? {}) as { requestId?: unknown; reason?: unknown };
  if (typeof params.requestId !== 'string' && typeof params.requestId !== 'number') return undefined;
  const key = `${direction}:${idKey(params.requestId)}`;
  const pending = session.pending.get(key);
  if (!pending) return undefined;
  session.pending.delete(key);
  const call = pending.call;
  if (!call) return undefined;
  const reason = typeof params.reason === 'string' && params.reason !== '' ? storableText(params.reason) : null;
  call.status = 'cancelled';
  call.error_message = reason ? `Cancelled: ${reason}` : 'Cancelled';
  call.ended_at = at;
  call.duration_ms = Math.max(0, Date.parse(at) - Date.parse(call.started_at));
  call.tokens_estimate = estimateTokens(call.request_bytes);
  return call;
}

/** A session ends: its unanswered calls end as timeouts. Returns them. */
export function settleUnanswered<S extends PairingSession>(
  session: S,
  at: string,
  rounds?: RoundJoins<S>,
): QueuedToolCall[] {
  const calls: QueuedToolCall[] = [];
  for (const pending of session.pending.values()) {
    if (pending.call)
      calls.push(abandonCall(session, pending.call, at, 'No response before the session ended', 'timeout'));
  }
  session.pending.clear();
  const reason = 'The client did not send the input required before the session ended';
  for (const { call } of takeAbandonedRounds(session)) calls.push(...abandonRound(session, call, at, reason, rounds));
  return calls;
}

/**
 * Requests waiting longer than `limitMs` get no answer any more (the agent gave up or its stream
 * closed without one): their calls end as timeouts, the other requests are forgotten.
 */
export function settleOverdue<S extends PairingSession>(
  session: S,
  nowMs: number,
  limitMs: number,
  rounds?: RoundJoins<S>,
): QueuedToolCall[] {
  const calls: QueuedToolCall[] = [];
  const at = new Date(nowMs).toISOString();
  for (const [key, pending] of session.pending) {
    if (nowMs - pending.startedMs <= limitMs) continue;
    session.pending.delete(key);
    if (pending.call)
      calls.push(
        abandonCall(session, pending.call, at, `No response within ${Math.round(limitMs / 1000)} s`, 'timeout'),
      );
  }
  const reason = `No retry with the input required within ${Math.round(limitMs / 1000)} s`;
  for (const { call } of takeAbandonedRounds(session, nowMs - limitMs))
    calls.push(...abandonRound(session, call, at, reason, rounds));
  return calls;
}

/**
 * A waiting call whose retry did not come: a timeout here — or, when its row may already hold
 * another instance's answer (its state was written for any instance to find), ended in the
 * database only if it still waits there (storedInputRounds.ts). Returns the calls settled here.
 */
function abandonRound<S extends PairingSession>(
  session: S,
  call: QueuedToolCall,
  at: string,
  reason: string,
  rounds: RoundJoins<S> | undefined,
): QueuedToolCall[] {
  if (!rounds || !call.input_state) return [abandonCall(session, call, at, reason, 'timeout')];
  rounds.abandoned(session, call, at, reason);
  return [];
}
