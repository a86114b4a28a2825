import {
  DEFINITIONS_ROW_NAME,
  DEFINITIONS_ROW_SUFFIX,
  type AnalyticsCostsResult,
  type CostBreakdown,
} from '../../../contract/analytics';
import { roundUsd } from '../../../contract/pricing';
import type { AnalyticsContext } from './analyticsContext';
import { groupKey, type RollupScope } from './rollupScope';
import { describeRange } from './timeRange';
import { contextWeight } from './contextWeight';
import { costliestSessions } from './sessionCosts';

// GET …/analytics/costs: what the range's traffic cost, by day (stacked by server), server, tool,
// client, platform key and session; the definitions / arguments / results split; context weight;
// the month so far with its projection; the prices used.

const DAY_MS = 86_400_000;
const NO_KEY_NAME = 'No platform key';

interface GroupRow {
  calls: number;
  tokens: number;
  cost: number;
}

export async function analyticsCosts(context: AnalyticsContext): Promise<AnalyticsCostsResult> {
  const { range } = context;
  const [groups, monthToDate, sessions, keyNames] = await Promise.all([
    costGroups(context),
    monthSoFar(context),
    costliestSessions(context),
    platformKeyNames(context),
  ]);
  const { daily, byTool, byClient, byKey } = groups;
  const toolCalls = new Map(byTool.map((row) => [`${row.server_id}/${row.tool_name}`, row.calls]));
  return {
    range: describeRange(range),
    currency: 'USD',
    total: roundUsd(daily.total),
    byDay: daily.days,
    byServer: daily.servers,
    byTool: sortByCost(
      byTool.map((row) =>
        row.tool_name === ''
          ? breakdown(`${row.server_id}${DEFINITIONS_ROW_SUFFIX}`, DEFINITIONS_ROW_NAME, row.server_id, row)
          : breakdown(`${row.server_id}/${row.tool_name}`, row.tool_name, row.server_id, row),
      ),
    ),
    byClient: sortByCost(
      byClient.map((row) => breakdown(row.client_name, row.client_name || 'Unknown client', null, row)),
    ),
    byKey: sortByCost(
      byKey.map((row) =>
        breakdown(
          row.platform_key_id ?? 'none',
          row.platform_key_id
            ? (keyNames.get(row.platform_key_id) ?? `Deleted key ${row.platform_key_id.slice(0, 8)}`)
            : NO_KEY_NAME,
          null,
          row,
        ),
      ),
    ),
    bySession: sessions,
    tokens: daily.tokens,
    contextWeight: await contextWeight(context, toolCalls),
    monthToDate,
    prices: context.prices,
  };
}

/** The workspace's platform keys by id, revoked ones included (their calls stay theirs). */
async function platformKeyNames(context: AnalyticsContext): Promise<Map<string, string>> {
  const rows = await context.db.query<{ id: string; name: string }>(
    'select id, name from platform_keys where workspace_id = $1',
    [context.workspaceId],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

function breakdown(id: string, name: string, serverId: string | null, row: GroupRow): CostBreakdown {
  return { id, name, serverId, calls: row.calls, tokens: row.tokens, cost: roundUsd(row.cost) };
}

function sortByCost(rows: CostBreakdown[]): CostBreakdown[] {
  return rows.sort((a, b) => b.cost - a.cost || b.calls - a.calls || a.name.localeCompare(b.name));
}

interface CostGroupRow {
  /** Which grouping set the row belongs to. */
  g: 'day' | 'tool' | 'client' | 'key';
  day: Date | string | null;
  server_id: string | null;
  tool_name: string | null;
  client_name: string | null;
  platform_key_id: string | null;
  calls: number;
  definitions: number;
  arguments: number;
  results: number;
  cost: number;
}

/** What the client and key breakdowns read of the full-key rows (not their sketches). */
const FULL_KEY_SUMS =
  'workspace_id, bucket, server_id, tool_name, client_name, platform_key_id, calls, argument_tokens, result_tokens, definition_tokens';

/**
 * Every breakdown of the range in two scans (grouping sets): by UTC day and server (the days, the
 * servers, the total and the token split) and by tool, from the per-tool sums; by client and by
 * key from the full key, the only rows that hold them. One read of the rows per level instead of
 * one per breakdown (docs/benchmarks.md "Analytics at 10 million calls").
 */
async function costGroups(context: AnalyticsContext) {
  const { range } = context;
  const day = `date_bin('1 day'::interval, r.bucket, 'epoch'::timestamptz)`;
  const sums = (scope: RollupScope) => `sum(r.calls)::float8 as calls, sum(r.definition_tokens)::float8 as definitions,
    sum(r.argument_tokens)::float8 as arguments, sum(r.result_tokens)::float8 as results, sum(${scope.costSql})::float8 as cost`;
  const serverScope = context.scope();
  const clientScope = context.scope();
  const [byServerAndTool, byClientAndKey] = await Promise.all([
    context.db.query<CostGroupRow>(
      `select case when grouping(r.tool_name) = 1 then 'day' else 'tool' end as g, ${day} as day, r.server_id, r.tool_name, ${sums(serverScope)}
       from ${serverScope.sums(range.fromMs, range.toMs, 'days')} ${serverScope.priceJoin}
       group by grouping sets ((${day}, r.server_id), (r.server_id, r.tool_name))`,
      serverScope.params,
    ),
    context.db.query<CostGroupRow>(
      `select case when grouping(r.client_name) = 1 then 'key' else 'client' end as g, r.client_name, r.platform_key_id, ${sums(clientScope)}
       from ${clientScope.source(range.fromMs, range.toMs, 'days', FULL_KEY_SUMS)} ${clientScope.priceJoin}
       group by grouping sets ((r.client_name), (r.platform_key_id))`,
      clientScope.params,
    ),
  ]);
  const tokensOf = (row: CostGroupRow) => row.definitions + row.arguments + row.results;
  const groupRow = (row: CostGroupRow): GroupRow => ({ calls: row.calls, tokens: tokensOf(row), cost: row.cost });
  const byTool: ({ server_id: string; tool_name: string } & GroupRow)[] = [];
  const byClient: ({ client_name: string } & GroupRow)[] = [];
  const byKey: ({ platform_key_id: string | null } & GroupRow)[] = [];
  const dayRows: CostGroupRow[] = [];
  for (const row of [...byServerAndTool, ...byClientAndKey]) {
    if (row.g === 'day') dayRows.push(row);
    // Tool '' holds what belongs to no call (sessions, definitions): the server's "Tool definitions"
    // row, so the tool breakdown sums to the total (a server whose sessions listed no tools has none).
    else if (row.g === 'tool' && (row.tool_name !== '' || row.definitions > 0))
      byTool.push({ server_id: row.server_id as string, tool_name: row.tool_name as string, ...groupRow(row) });
    else if (row.g === 'client') byClient.push({ client_name: row.client_name as string, ...groupRow(row) });
    else if (row.g === 'key') byKey.push({ platform_key_id: row.platform_key_id, ...groupRow(row) });
  }
  return { daily: dailyByServer(context, dayRows), byTool, byClient, byKey };
}

/** The days, the servers, the total and the token split, from the rows by UTC day and server. */
function dailyByServer(context: AnalyticsContext, rows: CostGroupRow[]) {
  const { range } = context;
  const days = new Map<string, { date: string; cost: number; tokens: number; byServer: Record<string, number> }>();
  for (let t = Math.floor(range.fromMs / DAY_MS) * DAY_MS; t < range.toMs; t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.set(date, { date, cost: 0, tokens: 0, byServer: {} });
  }
  const servers = new Map<string, GroupRow>();
  const tokens = { definitions: 0, arguments: 0, results: 0 };
  let total = 0;
  for (const row of rows) {
    const serverId = row.server_id as string;
    const date = groupKey(row.day).slice(0, 10);
    const rowTokens = row.definitions + row.arguments + row.results;
    const day = days.get(date);
    if (day) {
      day.cost += row.cost;
      day.tokens += rowTokens;
      day.byServer[serverId] = roundUsd((day.byServer[serverId] ?? 0) + row.cost);
    }
    const server = servers.get(serverId) ?? { calls: 0, tokens: 0, cost: 0 };
    server.calls += row.calls;
    server.tokens += rowTokens;
    server.cost += row.cost;
    servers.set(serverId, server);
    tokens.definitions += row.definitions;
    tokens.arguments += row.arguments;
    tokens.results += row.results;
    total += row.cost;
  }
  return {
    days: [...days.values()].map((day) => ({ ...day, cost: roundUsd(day.cost) })),
    servers: sortByCost([...servers].map(([id, row]) => breakdown(id, context.serverName(id), id, row))),
    tokens,
    total,
  };
}

/** The shortest time a month-end projection is based on: a few minutes of traffic extrapolated to a month says nothing. */
const MIN_BASIS_MS = 3_600_000;

/**
 * The calendar month (UTC) to now, whatever the range, projected to the month's end at the rate
 * observed since the month's first traffic (docs/analytics.md "Cost"): cost + rate × time left.
 */
async function monthSoFar(context: AnalyticsContext): Promise<AnalyticsCostsResult['monthToDate']> {
  const now = new Date(context.nowMs);
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const toMs = Math.floor(context.nowMs / 60_000) * 60_000 + 60_000;
  const scope = context.scope();
  const firstScope = context.scope();
  const [rows, first] = await Promise.all([
    context.db.query<{ cost: number }>(
      `select coalesce(sum(${scope.costSql}), 0)::float8 as cost from ${scope.sums(monthStart, toMs, 'weeks')} ${scope.priceJoin}`,
      scope.params,
    ),
    // The first hour of the month with traffic (hour rows: a projection's basis needs no finer).
    context.db.query<{ at: Date | string | null }>(
      `select min(r.bucket) as at from ${firstScope.sums(monthStart, toMs, 'hours')}
       where r.calls > 0 or r.sessions > 0 or r.definition_tokens > 0`,
      firstScope.params,
    ),
  ]);
  const cost = rows[0].cost;
  const firstMs = first[0]?.at ? new Date(first[0].at).getTime() : null;
  const monthIso = new Date(monthStart).toISOString();
  if (firstMs === null)
    return { monthStart: monthIso, cost: roundUsd(cost), projectedMonthEnd: null, basisFrom: null, basisHours: 0 };
  const basisFrom = Math.max(monthStart, Math.min(firstMs, context.nowMs - MIN_BASIS_MS));
  const observed = context.nowMs - basisFrom;
  const left = Math.max(0, monthEnd - context.nowMs);
  return {
    monthStart: monthIso,
    cost: roundUsd(cost),
    projectedMonthEnd: roundUsd(cost + (cost / Math.max(observed, 60_000)) * left),
    basisFrom: new Date(basisFrom).toISOString(),
    basisHours: Math.round((observed / 3_600_000) * 10) / 10,
  };
}
