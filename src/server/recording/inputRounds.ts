import { createHash } from 'node:crypto';
import type { JsonRpcMessage } from '../proxy/jsonRpc';
import type { SeenMessage } from './callSettling';
import type { QueuedToolCall } from './rows';

// Multi round-trip requests (MCP 2026-07-28, SEP-2322): a server answers a tools/call with
// `resultType: "input_required"` (its `inputRequests`, an opaque `requestState`), and the client
// sends the call again — a new request, a new id — with `inputResponses` and the `requestState`
// echoed. For the user that is one tool call: the call's row stays open across the rounds, from
// the first request to the final answer; the rounds between (the interim answer, the retry) are
// messages of the session, so the replay shows them in their place.
//
// Nothing on the wire names the call a retry continues: it is the waiting call whose
// `requestState` the retry echoes, else (a server that keeps no state) the latest waiting call of
// the same tool. Calls wait in the instance's memory, and their rows keep a key of the state
// (`input_state`): a retry that finds no waiting call here — it reached another instance, or this
// one restarted — is a message of its session, and its answer continues the stored call that
// waits for that state (storedInputRounds.ts); only when there is none is it a call of its own.

export interface AwaitingInput {
  call: QueuedToolCall;
  /** When the first round's request was received: the call's duration runs from it. */
  startedMs: number;
  /** When the interim answer came (a retry that never comes ends the call after the usual limit). */
  sinceMs: number;
  requestState: string | null;
}

/** A retry that continues no call waiting here: its answer looks for the stored call waiting for its state. */
export interface JoiningRetry {
  /** The call it is when no stored call waits for it (not counted in its session yet). */
  call: QueuedToolCall;
  stateKey: string;
}

/** How pairing hands the rounds that may involve other instances to the recorder (storedInputRounds.ts). */
export interface RoundJoins<S> {
  /** A call now waits for its retry: its row is written again, with its state's key. */
  awaiting(call: QueuedToolCall): void;
  /** The answer to a retry that continues no call held here. */
  joined(session: S, retry: JoiningRetry, answer: JsonRpcMessage, seen: SeenMessage, startedMs: number): void;
  /** A call held here whose retry did not come: a timeout, unless another instance has ended it. */
  abandoned(session: S, call: QueuedToolCall, at: string, reason: string): void;
}

/** The key a waiting call's row keeps of its state (the state is opaque, and may be large). */
export function stateKey(requestState: string): string {
  return createHash('sha256').update(requestState).digest('base64url');
}

/** The key of the state a tools/call echoes (a retry), or null when it echoes none. */
export function echoedStateKey(params: Record<string, unknown>): string | null {
  return typeof params.requestState === 'string' ? stateKey(params.requestState) : null;
}

/** Calls awaiting a retry, per session, at most (beyond it an interim answer settles its call as before). */
const MAX_AWAITING_PER_SESSION = 1_000;

export interface InputRoundsSession {
  /** By call id. */
  awaitingInput?: Map<string, AwaitingInput>;
}

/** Whether a tools/call result asks for input instead of ending the call. */
export function isInputRequired(result: unknown): result is { requestState?: unknown } {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === 'input_required'
  );
}

/** Keeps a call open for its retry; false when the session holds too many already (the call settles as before). */
export function awaitRetry(
  session: InputRoundsSession,
  call: QueuedToolCall,
  result: { requestState?: unknown },
  startedMs: number,
  nowMs: number,
): boolean {
  session.awaitingInput ??= new Map();
  if (session.awaitingInput.size >= MAX_AWAITING_PER_SESSION) return false;
  call.input_state = typeof result.requestState === 'string' ? stateKey(result.requestState) : null;
  session.awaitingInput.set(call.id, {
    call,
    startedMs,
    sinceMs: nowMs,
    requestState: typeof result.requestState === 'string' ? result.requestState : null,
  });
  return true;
}

/** The waiting call a tools/call request continues, taken from the waiting ones; undefined for a new call. */
export function takeRetried(
  session: InputRoundsSession,
  toolName: string,
  params: Record<string, unknown>,
): AwaitingInput | undefined {
  const awaiting = session.awaitingInput;
  if (!awaiting || awaiting.size === 0) return undefined;
  const requestState = typeof params.requestState === 'string' ? params.requestState : null;
  if (requestState === null && params.inputResponses === undefined) return undefined;
  let found: AwaitingInput | undefined;
  for (const entry of awaiting.values()) {
    if (requestState !== null && entry.requestState === requestState) {
      found = entry;
      break;
    }
    // The latest of the same tool (entries are in the order their interim answers came).
    if (entry.requestState === null && entry.call.tool_name === toolName) found = entry;
  }
  if (found) {
    awaiting.delete(found.call.id);
    found.call.input_state = null;
  }
  return found;
}

/** Waiting calls whose retry is overdue (or all of them: the session ended), taken from the waiting ones. */
export function takeAbandonedRounds(session: InputRoundsSession, olderThanMs?: number): AwaitingInput[] {
  const awaiting = session.awaitingInput;
  if (!awaiting || awaiting.size === 0) return [];
  const taken: AwaitingInput[] = [];
  for (const [id, entry] of awaiting) {
    if (olderThanMs !== undefined && entry.sinceMs >= olderThanMs) continue;
    awaiting.delete(id);
    taken.push(entry);
  }
  return taken;
}
