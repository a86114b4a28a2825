import type { JsonRpcMessage } from '../proxy/jsonRpc';
import { abandonCall, settleWithAnswer, type SeenMessage } from './callSettling';
import { awaitRetry, isInputRequired, stateKey, type JoiningRetry, type RoundJoins } from './inputRounds';
import type { RecordedSession } from './openSessions';
import { joinWrittenHalves } from './inputRoundJoin';
import { endHeldCall, isoTime } from './storedCallEnd';
import type { QueuedToolCall } from './rows';
import type { StoredTaskSettles } from './storedTaskSettle';
import type { WriteQueue } from './writeQueue';

// Multi round-trip calls across instances (inputRounds.ts): a call waiting for its retry is held
// by the instance that saw its interim answer, and its row keeps the key of the state the retry
// will echo. A retry that another instance receives (or this one after a restart) finds no
// waiting call there: it is a message of its session, and its answer continues the stored call
// that waits for that state — of the same session (a sealed session id) or of the same agent (its
// credential fingerprint: no one else's echo joins a call). Only when none waits is the retry a
// call of its own, as before.
//
// The instance holding a call may then end it as a timeout while another has answered it: it ends
// it as a held call (storedCallEnd.ts), only if it still waits. Whoever ends the row counts it —
// its session's errors and the minute rollups — so the figures agree.

/** The newest call of the same session or agent waiting, on this server, for the state echoed. */
const WAITING = `select tc.id, tc.started_at from tool_calls tc join sessions s on s.id = tc.session_id
  where tc.server_id = $1 and tc.input_state = $2 and tc.status = 'pending' and (tc.session_id = $3 or s.client_key = $4)
  order by tc.started_at desc limit 1`;

const ON_TARGET = `tc.id = target.id and tc.started_at = target.started_at and tc.status = 'pending'`;

/** The retry's final answer ends the waiting call: its outcome and its answer's text, timed from the first round. */
const END_WAITING = `with target as (${WAITING}),
  settled as (
    update tool_calls tc set status = $5::text, error_message = $6, input_state = null,
      ended_at = greatest($7::timestamptz, tc.started_at),
      duration_ms = greatest(0, round(extract(epoch from ($7::timestamptz - tc.started_at)) * 1000))::int,
      response_payload = $8, response_kind = $9, response_truncated = $10, response_bytes = $11::int,
      tokens_estimate = ceil((tc.request_bytes + $11::int) / 4.0)::int
    from target where ${ON_TARGET}
    returning tc.id, tc.session_id, tc.platform_key_id, tc.started_at, tc.ended_at, tc.duration_ms, tc.request_bytes,
      tc.tokens_estimate, tc.jsonrpc_id),
  counted as (update sessions s set error_count = s.error_count + 1 from settled where s.id = settled.session_id and $5::text = 'error')
  select settled.*, s.client_name from settled join sessions s on s.id = settled.session_id`;

/** The retry was answered `input_required` again: the waiting call now waits for the new state. */
const MOVE_WAITING = `with target as (${WAITING})
  update tool_calls tc set input_state = $5 from target where ${ON_TARGET} returning tc.id`;

const ADD_TO_SESSION = `update sessions set call_count = call_count + $2, error_count = error_count + $3 where id = $1`;

interface EndedRow {
  id: string;
  session_id: string;
  platform_key_id: string | null;
  started_at: unknown;
  ended_at: unknown;
  duration_ms: number;
  request_bytes: number;
  tokens_estimate: number;
  jsonrpc_id: string;
  client_name: string | null;
}

export class StoredInputRounds implements RoundJoins<RecordedSession> {
  constructor(
    private readonly queue: WriteQueue,
    private readonly stored: StoredTaskSettles,
  ) {
    // Either half of a retry that reached another instance before its call was stored: joined
    // once both are written (inputRoundJoin.ts).
    queue.callsWritten = (calls) => joinWrittenHalves(stored, calls);
  }

  awaiting(call: QueuedToolCall): void {
    this.queue.pushToolCall(call);
  }

  joined(
    session: RecordedSession,
    retry: JoiningRetry,
    answer: JsonRpcMessage,
    seen: SeenMessage,
    startedMs: number,
  ): void {
    const { call } = retry;
    const row = session.row;
    const waiting = [row.server_id, retry.stateKey, row.id, row.client_key];
    if (isInputRequired(answer.result)) {
      const next = answer.result.requestState;
      if (typeof next !== 'string') {
        this.ownCall(session, retry, answer, seen, startedMs);
        return;
      }
      void this.stored.run(MOVE_WAITING, [...waiting, stateKey(next)]).then((moved) => {
        if (moved.length === 0) this.ownCall(session, retry, answer, seen, startedMs);
      });
      return;
    }
    // The outcome as this answer gives it, counted in no session yet (it may be another's call).
    settleWithAnswer({ row: { ...row } }, call, answer, seen, startedMs, seen.nowMs, false);
    const params = [
      ...waiting,
      call.status,
      call.error_message,
      seen.at,
      call.response_payload,
      call.response_kind,
      call.response_truncated,
      call.response_bytes,
    ];
    void this.stored.run<EndedRow>(END_WAITING, params).then((rows) => {
      const ended = rows.at(0);
      if (!ended) {
        this.ownCall(session, retry, answer, seen, startedMs);
        return;
      }
      this.queue.countStoredSettle(
        {
          ...call,
          id: ended.id,
          session_id: ended.session_id,
          platform_key_id: ended.platform_key_id,
          jsonrpc_id: ended.jsonrpc_id,
          started_at: isoTime(ended.started_at),
          ended_at: isoTime(ended.ended_at),
          duration_ms: ended.duration_ms,
          request_bytes: ended.request_bytes,
          tokens_estimate: ended.tokens_estimate,
        },
        ended.client_name,
      );
    });
  }

  abandoned(session: RecordedSession, call: QueuedToolCall, at: string, reason: string): void {
    const ended = abandonCall({ row: { ...session.row } }, { ...call, input_state: null }, at, reason, 'timeout');
    endHeldCall(this.stored, this.queue, ended, session.row.client_name, () =>
      this.settleHere(session, abandonCall(session, call, at, reason, 'timeout'), 0, 1),
    );
  }

  /**
   * No stored call waits for the retry: it is a call of its own, its request and answer messages of
   * its session. Ended, it keeps the state it echoed: a waiting call not stored yet joins it once
   * it is (inputRoundJoin.ts).
   */
  private ownCall(
    session: RecordedSession,
    { call, stateKey }: JoiningRetry,
    answer: JsonRpcMessage,
    seen: SeenMessage,
    startedMs: number,
  ): void {
    call.request_seq = null;
    session.row.call_count++;
    if (isInputRequired(answer.result) && awaitRetry(session, call, answer.result, startedMs, seen.nowMs)) {
      this.queue.pushToolCall(call);
      this.settleHere(session, undefined, 1, 0);
      return;
    }
    const errorsBefore = session.row.error_count;
    settleWithAnswer(session, call, answer, seen, startedMs, seen.nowMs, false);
    call.retry_state = stateKey;
    this.settleHere(session, call, 1, session.row.error_count - errorsBefore);
  }

  /**
   * A call settled here (`call`) and what it added to its session's counts: written with the
   * session's row — or, when that row's end is announced already (it is not written again: it
   * would count as a new session in the analytics), added to the row where stored.
   */
  private settleHere(session: RecordedSession, call: QueuedToolCall | undefined, calls: number, errors: number): void {
    if (call) this.queue.settleToolCall(call);
    if (!session.endAnnounced) this.queue.markDirty(session);
    else if (calls + errors > 0) void this.stored.run(ADD_TO_SESSION, [session.row.id, calls, errors]);
  }
}
