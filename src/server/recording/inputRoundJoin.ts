import type { QueuedToolCall } from './rows';
import type { StatementRunner } from './storedCallEnd';

// A retry that reaches another instance before the call waiting for it is stored (its holder
// writes its rows every flush, ~50 ms) finds no waiting row: it is recorded as a call of its own,
// its row keeping the key of the state it echoed (`retry_state`, migration 041). Nothing on either
// side knows whether the other half exists yet, so each side, once its own row is written, looks
// for the other: the waiting call's holder for a retry of its state, the retry's instance for a
// call waiting for it. Each looks only after its own write committed, so the one that looks second
// sees both rows — whatever the timing, they cannot both miss each other — and both finding them
// is harmless: the statement locks the rows and joins only a row still pending.
//
// A retry joins a call that started before it (a server may give every call the same state: an
// old retry of the agent's must not end a new call), with a minute's leeway for the instances'
// clocks. Joining: the waiting call's row takes the retry's outcome and answer (timed from its first
// round), the retry's own row goes, and the sessions' counts move with it: the retry's session
// loses the call (and its failure), the waiting call's session gains the failure. The minute
// rollups stay as the retry's instance counted them: once.

const JOIN_HALVES = `with waiting as (
    select tc.id, tc.started_at, tc.session_id, s.client_key from tool_calls tc join sessions s on s.id = tc.session_id
    where tc.server_id = $1 and tc.input_state = $2 and tc.status = 'pending'
    order by tc.started_at desc limit 1 for update of tc),
  retry as (
    select r.id, r.started_at, r.status, r.error_message, r.error_class, r.ended_at, r.response_payload, r.response_kind,
      r.response_truncated, r.response_bytes, r.result_tokens
    from tool_calls r join sessions rs on rs.id = r.session_id
      join waiting w on r.session_id = w.session_id or rs.client_key = w.client_key
    where r.server_id = $1 and r.retry_state = $2 and r.status <> 'pending' and r.started_at > w.started_at - interval '1 minute'
    order by r.started_at limit 1 for update of r),
  joined as (
    update tool_calls tc set status = retry.status, error_message = retry.error_message, error_class = retry.error_class,
      input_state = null, ended_at = greatest(retry.ended_at, tc.started_at),
      duration_ms = greatest(0, round(extract(epoch from (retry.ended_at - tc.started_at)) * 1000))::int,
      response_payload = retry.response_payload, response_kind = retry.response_kind,
      response_truncated = retry.response_truncated, response_bytes = retry.response_bytes,
      result_tokens = retry.result_tokens, tokens_estimate = ceil((tc.request_bytes + retry.response_bytes) / 4.0)::int
    from retry, waiting where tc.id = waiting.id and tc.started_at = waiting.started_at and tc.status = 'pending'
    returning tc.session_id, tc.status),
  removed as (delete from tool_calls r using retry, joined where r.id = retry.id and r.started_at = retry.started_at
    returning r.session_id, r.status),
  moved as (select session_id, sum(calls)::int as calls, sum(errors)::int as errors from (
      select session_id, -1 as calls, case when status in ('error', 'timeout') then -1 else 0 end as errors from removed
      union all
      select session_id, 0, case when status in ('error', 'timeout') then 1 else 0 end from joined) d
    group by session_id),
  counted as (update sessions s set call_count = s.call_count + m.calls, error_count = s.error_count + m.errors
    from moved m where s.id = m.session_id)
  select count(*)::int as joined from joined`;

/** After a write: joins the halves of a retry the written calls may complete (each state once). */
export function joinWrittenHalves(stored: StatementRunner, calls: readonly QueuedToolCall[]): void {
  const keys = new Set<string>();
  for (const call of calls) {
    const key = call.retry_state ?? (call.status === 'pending' ? call.input_state : null);
    if (!key || keys.has(`${call.server_id}\u0001${key}`)) continue;
    keys.add(`${call.server_id}\u0001${key}`);
    void stored.run(JOIN_HALVES, [call.server_id, key]);
  }
}
