import type { UsageDailyResult } from '../../../contract/analytics';
import { roundUsd } from '../../../contract/pricing';
import { readAgentCallQuota } from '../../data/billing/agentCallQuota';
import type { AnalyticsContext } from './analyticsContext';
import { ERRORS_SQL, TOKENS_SQL } from './rollupScope';
import { describeRange } from './timeRange';
import { sessionsCallingTool } from './toolSessions';

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
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(ms),
  );
}

export async function usageDaily(context: AnalyticsContext, userTimeZone: string): Promise<UsageDailyResult> {
  const { range } = context;
  const scope = context.scope();
  const zone = scope.param(userTimeZone);
  const source = scope.sums(range.fromMs, range.toMs, userTimeZone === 'UTC' ? 'days' : 'hours');
  const [rows, quota, toolSessions] = await Promise.all([
    context.db.query<{ date: string; calls: number; errors: number; sessions: number; tokens: number; cost: number }>(
      `select to_char(r.bucket at time zone ${zone}::text, 'YYYY-MM-DD') as date, sum(r.calls)::float8 as calls, sum(${ERRORS_SQL})::float8 as errors,
              sum(r.sessions)::float8 as sessions, sum(${TOKENS_SQL})::float8 as tokens, sum(${scope.costSql})::float8 as cost
       from ${source} ${scope.priceJoin} group by 1`,
      scope.params,
    ),
    ownerQuota(context),
    // Under a tool filter the sessions of a day are those that called the tool that day (toolSessions.ts).
    context.filters.tool
      ? sessionsCallingTool(
          context,
          range.fromMs,
          range.toMs,
          (startedAt) => `to_char(${startedAt} at time zone $1::text, 'YYYY-MM-DD')`,
          [userTimeZone],
        )
      : null,
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
      return {
        date,
        calls: row?.calls ?? 0,
        errors: row?.errors ?? 0,
        sessions: toolSessions ? (toolSessions.get(date) ?? 0) : (row?.sessions ?? 0),
        tokens: row?.tokens ?? 0,
        cost: roundUsd(row?.cost ?? 0),
      };
    }),
    quota,
  };
}

/**
 * The owner's agent calls this calendar month (UTC) against their plan: the count the proxy's quota
 * gate admits calls against (agentCallQuota.ts), the same number the dashboard's usage bar shows
 * (billing's workspace-limits) — one source for the quota everywhere.
 */
async function ownerQuota(context: AnalyticsContext): Promise<UsageDailyResult['quota']> {
  const owner = await context.db.query<{ owner_id: string }>('select owner_id from workspaces where id = $1', [
    context.workspaceId,
  ]);
  const quota = await readAgentCallQuota(context.db, owner[0].owner_id, new Date(context.nowMs));
  return { plan: quota.plan, limit: quota.limit, used: quota.used, resetsAt: quota.resetsAt };
}
