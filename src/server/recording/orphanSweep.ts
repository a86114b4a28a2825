import type { Queryable } from '../db/database';

// A session belongs to the instance that proxies it, which ends it when it goes idle or when the
// instance shuts down. An instance that stops without a graceful shutdown (killed, out of memory,
// machine lost) leaves its sessions 'active' in the database, and the calls it had written while
// they waited for an answer 'pending': the dashboard would count them active forever. A session
// still active well past the longest idle limit has no owner left (an owner rewrites an active
// session's row at least once a second while it has traffic, and ends it once idle): it is ended
// here as of its last activity, and its unanswered calls are settled as errors, as a graceful
// shutdown would have done (their minute's usage rollup, kept in the dead instance's memory, is
// not rebuilt: usage counts answered and failed calls the recorder saw settle).

export const ORPHANED_CALL_MESSAGE = 'No response recorded: Toolscope stopped before the answer';

/** Past the idle limit, an owner still ends its idle session within one idle sweep (30 s): 5 min is ample. */
const ORPHAN_MARGIN_MS = 5 * 60_000;

/** Sessions whose last activity is older than this have no owner left. */
export function orphanCutoff(nowMs: number, longestIdleMs: number): Date {
  return new Date(nowMs - longestIdleMs - ORPHAN_MARGIN_MS);
}

export interface OrphanSweepResult {
  sessions: number;
  calls: number;
}

/**
 * Ends sessions still active whose last activity is older than `cutoff` (all but `keep`: the
 * sessions this instance is proxying). Every data-modifying part reads the same snapshot, so the
 * error count added to a session is the number of its calls settled here.
 */
export async function endOrphanedSessions(
  db: Queryable,
  cutoff: Date,
  keep: readonly string[],
): Promise<OrphanSweepResult> {
  // The counts are taken again from the stored rows: the dead instance's last session row may
  // trail the calls and messages it had already written (it rewrites the row at most once a
  // flush, and may have died between). A tools/call stands for its request and its response
  // messages; errors are error messages, calls answered with an error, and calls settled as
  // errors (those pending now are settled here). A count is never lowered: rows written before
  // migration 007 kept a call's messages as message rows too.
  const [row] = await db.query<{ sessions: number; calls: number }>(
    `with ended as (
       update sessions s set status = 'ended', ended_at = s.last_activity_at,
              call_count = greatest(s.call_count, counted.calls),
              message_count = greatest(s.message_count, counted.messages),
              error_count = greatest(s.error_count + counted.pending, counted.errors)
         from sessions o
         cross join lateral (
           select (select count(*) from tool_calls tc where tc.session_id = o.id)::int as calls,
                  (select count(*) from tool_calls tc where tc.session_id = o.id and tc.status = 'pending')::int as pending,
                  ((select count(*) from messages m where m.session_id = o.id)
                   + (select count(*) from tool_calls tc where tc.session_id = o.id and tc.request_seq is not null)
                   + (select count(*) from tool_calls tc where tc.session_id = o.id and tc.response_seq is not null))::int as messages,
                  ((select count(*) from messages m where m.session_id = o.id and m.kind = 'error')
                   + (select count(*) from tool_calls tc where tc.session_id = o.id and (tc.status in ('error', 'pending') or tc.response_kind = 'error')))::int as errors
         ) counted
        where o.id = s.id and s.status = 'active' and s.last_activity_at < $1 and not (s.id = any($2::uuid[]))
        returning s.id, s.last_activity_at),
     settled as (
       update tool_calls tc set status = 'error', error_message = $3, ended_at = greatest(e.last_activity_at, tc.started_at)
         from ended e
        where tc.session_id = e.id and tc.status = 'pending'
        returning 1)
     select (select count(*) from ended)::int as sessions, (select count(*) from settled)::int as calls`,
    [cutoff.toISOString(), keep, ORPHANED_CALL_MESSAGE],
  );
  return { sessions: row.sessions, calls: row.calls };
}
