import type { UsageDailyResult } from '../../../contract/analytics';
import { planById } from '../../../contract/plans';
import { roundUsd } from '../../../contract/pricing';
import { monthStart, readSubscription } from '../billing/store';
import type { AnalyticsContext } from './analyticsContext';
import { ERRORS_SQL, TOKENS_SQL } from './rollupScope';
import { describeRange } from './timeRange';

// GET …/analytics/usage/daily: the range day by day in the user's time zone (their preference,
// UTC by default), and the workspace owner's monthly agent-call quota. Days of another zone than
// UTC are summed from hour rollups (a zone whose offset is not whole hours is read to the hour).

const DAY_MS = 86_400_000;

/** The user's IANA time zone when it is one this runtime knows; UTC otherwise. */
export function usableTimeZone(zone: unknown): string {
  if (typeof zone !== 'string' || zone.length === 0) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** A time's calendar date (YYYY-MM-DD) in a zone. */
function dateIn(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

export async function usageDaily(context: AnalyticsContext, userTimeZone: string): Promise<UsageDailyResult> {
  const { range } = context;
  const scope = context.scope();
  const zone = scope.param(userTimeZone);
  const source = scope.sums(range.fromMs, range.toMs, userTimeZone === 'UTC' ? 'days' : 'hours');
  const [rows, quota] = await Promise.all([
    context.db.query<{ date: string; calls: number; errors: number; sessions: number; tokens: number; cost: number }>(
      `select to_char(r.bucket at time zone ${zone}::text, 'YYYY-MM-DD') as date, sum(r.calls)::float8 as calls, sum(${ERRORS_SQL})::float8 as errors,
              sum(r.sessions)::float8 as sessions, sum(${TOKENS_SQL})::float8 as tokens, sum(${scope.costSql})::float8 as cost
       from ${source} ${scope.priceJoin} group by 1`,
      scope.params,
    ),
    ownerQuota(context),
  ]);
  const byDate = new Map(rows.map((row) => [row.date, row]));
  const dates: string[] = [];
  for (let t = range.fromMs; ; t += DAY_MS / 2) {
    const date = dateIn(Math.min(t, range.toMs - 1), userTimeZone);
    if (dates[dates.length - 1] !== date) dates.push(date);
    if (t >= range.toMs - 1) break;
  }
  return {
    range: describeRange(range),
    timeZone: userTimeZone,
    days: dates.map((date) => {
      const row = byDate.get(date);
      return { date, calls: row?.calls ?? 0, errors: row?.errors ?? 0, sessions: row?.sessions ?? 0, tokens: row?.tokens ?? 0, cost: roundUsd(row?.cost ?? 0) };
    }),
    quota,
  };
}

/** Agent calls this calendar month (UTC) in every workspace the owner owns, against their plan. */
async function ownerQuota(context: AnalyticsContext): Promise<UsageDailyResult['quota']> {
  const owner = await context.db.query<{ owner_id: string }>('select owner_id from workspaces where id = $1', [context.workspaceId]);
  const now = new Date(context.nowMs);
  const start = monthStart(now);
  const subscription = await readSubscription(context.db, owner[0].owner_id, { now });
  const plan = planById(subscription.plan);
  const used = await context.db.query<{ calls: number }>(
    // Per workspace and day (server_id and tool_name null: all its servers, migration 023), and what is still pending (trafficFold.ts).
    `select coalesce(sum(d.calls), 0)::float8 as calls
     from (select calls from latency_days where server_id is null and tool_name is null and bucket >= $2::timestamptz and workspace_id in (select id from workspaces where owner_id = $1)
           union all select calls from traffic_pending where bucket >= $2::timestamptz and workspace_id in (select id from workspaces where owner_id = $1)) d`,
    [owner[0].owner_id, start.toISOString()],
  );
  return {
    plan: plan.id,
    limit: plan.agentCallsPerMonth,
    used: used[0].calls,
    resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
  };
}
