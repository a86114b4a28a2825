import type { Queryable } from '../db/database';
import { PLANS, planById, type PlanId } from '../../contract/plans';
import { monthPeriod } from '../data/billing/agentCallQuota';

// The statements behind the agent-call quota (quotaGate.ts): one counter per account and calendar
// month (UTC) in agent_call_counters, shared by every instance. PostgreSQL's row lock on the counter
// serialises them across instances, so `used` can never pass the plan's limit.

/** What the counter said after a statement. */
export interface CounterReading {
  /** Calls this statement added to the counter. */
  granted: number;
  used: number;
  limit: number | null;
  plan: PlanId;
}

/** The limit of each plan as SQL (kept in step with contract/plans.ts). */
const LIMIT_OF_PLAN = `case coalesce(s.plan, 'starter') ${PLANS.map((p) => `when '${p.id}' then ${p.agentCallsPerMonth ?? 'null'}`).join(' ')} else ${planById('starter').agentCallsPerMonth} end`;

/**
 * Adds calls to the account's counter and returns it. `capped`: only up to the plan's limit
 * (admitting calls not made yet); otherwise all of them (counting calls already made: an unlimited
 * plan's, or those let through while the database was away). The first statement of an account in
 * a month starts its counter from the calls already recorded that month (usage before the counter
 * existed, or recorded by an instance that could not count).
 */
function counterSql(capped: boolean): string {
  const add = (used: string, lim: string) =>
    capped ? `greatest(${used}, least(${used} + $3::int, coalesce(${lim}, 2147483647)))` : `${used} + $3::int`;
  return `insert into agent_call_counters as c (owner_id, period, used, lim, plan, last_grant, updated_at)
  select w.owner_id, $2::date,
         ${add('coalesce(r.recorded, 0)', LIMIT_OF_PLAN)},
         ${LIMIT_OF_PLAN}, coalesce(s.plan, 'starter'),
         ${add('coalesce(r.recorded, 0)', LIMIT_OF_PLAN)} - coalesce(r.recorded, 0),
         now()
    from workspaces w
    left join subscriptions s on s.user_id = w.owner_id
    left join lateral (
      select sum(u.calls)::int as recorded from usage_minutes u join workspaces o on o.id = u.workspace_id
       where o.owner_id = w.owner_id and u.bucket >= $2::date::timestamp at time zone 'utc'
         and not exists (select 1 from agent_call_counters e where e.owner_id = w.owner_id and e.period = $2::date)
    ) r on true
   where w.id = $1
  on conflict (owner_id, period) do update set
    used = ${add('c.used', 'excluded.lim')},
    last_grant = ${add('c.used', 'excluded.lim')} - c.used,
    lim = excluded.lim, plan = excluded.plan, updated_at = now()
  returning used, lim, plan, last_grant`;
}

const ADMIT_SQL = counterSql(true);
const COUNT_SQL = counterSql(false);

async function runCounter(
  db: Queryable,
  sql: string,
  workspaceId: string,
  count: number,
  now: Date,
): Promise<CounterReading | null> {
  const rows = await db.query<{ used: number; lim: number | null; plan: PlanId; last_grant: number }>(sql, [
    workspaceId,
    monthPeriod(now),
    count,
  ]);
  const row = rows.at(0);
  // A workspace deleted meanwhile: nothing to count against; the proxy answers 404 soon after.
  if (!row) return null;
  return { granted: row.last_grant, used: row.used, limit: row.lim, plan: row.plan };
}

/** Admits up to `count` calls for the workspace's account this month; null for a workspace that is gone. */
export function admitCalls(
  db: Queryable,
  workspaceId: string,
  count: number,
  now: Date,
): Promise<CounterReading | null> {
  return runCounter(db, ADMIT_SQL, workspaceId, count, now);
}

/** Counts `count` calls already made (never refused, may pass the limit); null for a workspace that is gone. */
export function countMadeCalls(
  db: Queryable,
  workspaceId: string,
  count: number,
  now: Date,
): Promise<CounterReading | null> {
  return runCounter(db, COUNT_SQL, workspaceId, count, now);
}

/** Gives back calls admitted but not made (an unused lease, a batch caller that did not fit whole). */
export async function releaseCalls(db: Queryable, workspaceId: string, count: number, now: Date): Promise<void> {
  await db.query(
    `update agent_call_counters c set used = greatest(0, c.used - $3::int), updated_at = now()
       from workspaces w where w.id = $1 and c.owner_id = w.owner_id and c.period = $2::date`,
    [workspaceId, monthPeriod(now), count],
  );
}
