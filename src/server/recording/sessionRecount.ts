import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/database';
import type { QueuedSession } from './rows';

// A session several instances served (docs/proxy.md "Any instance serves any session") has its
// row written by each with the counts it saw; the row keeps the larger. Once it has ended, its
// message and call counts are taken again from the stored rows (a tools/call stands for its
// request and its response), never lowering a count — run a little after the end, so the other
// instances' last writes (every 50 ms) are in.
export const RECOUNT_AFTER_MS = 2_000;

export async function recountSessions(db: Queryable, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.query(
    `update sessions s set call_count = greatest(s.call_count, counted.calls), message_count = greatest(s.message_count, counted.messages)
       from sessions o
       cross join lateral (
         select (select count(*) from tool_calls tc where tc.session_id = o.id)::int as calls,
                ((select count(*) from messages m where m.session_id = o.id)
                 + (select count(*) from tool_calls tc where tc.session_id = o.id and tc.request_seq is not null)
                 + (select count(*) from tool_calls tc where tc.session_id = o.id and tc.response_seq is not null))::int as messages
       ) counted
      where o.id = s.id and s.id = any($1::uuid[])`,
    [sessionIds],
  );
}

/** Shared sessions whose end a write stored: their counts are taken again from their rows shortly. */
export function scheduleRecount(db: Queryable, sessions: readonly QueuedSession[], log?: Pick<FastifyBaseLogger, 'error'>): void {
  const ended = sessions.filter((session) => session.shared && session.row.status === 'ended').map((session) => session.row.id);
  if (ended.length === 0) return;
  const timer = setTimeout(() => {
    recountSessions(db, ended).catch((error: unknown) => log?.error({ err: error }, 'session recount failed'));
  }, RECOUNT_AFTER_MS);
  timer.unref();
}
