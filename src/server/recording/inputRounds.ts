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
// the same tool. A retry that finds none is a call of its own, as before. Calls wait in the
// instance's memory: a retry that another instance receives is a row of its own there.

export interface AwaitingInput {
  call: QueuedToolCall;
  /** When the first round's request was received: the call's duration runs from it. */
  startedMs: number;
  /** When the interim answer came (a retry that never comes ends the call after the usual limit). */
  sinceMs: number;
  requestState: string | null;
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
  if (found) awaiting.delete(found.call.id);
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
