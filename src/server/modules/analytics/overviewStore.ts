import type { AnalyticsOverviewResult, OverviewTotals } from '../../../contract/analytics';
import { roundUsd } from '../../../contract/pricing';
import type { AnalyticsContext } from './analyticsContext';
import { ERRORS_SQL, groupKey, roundRate, TOKENS_SQL } from './rollupScope';
import { mergedSketches } from './sketchReads';
import { sessionsCallingTool } from './toolSessions';
import { StoredSketch } from './storedSketch';
import { coarsestFor, describeRange, previousRange, seriesStarts, stepMs, type TimeRange } from './timeRange';

// GET …/analytics/overview: the range's totals against the period before it, and calls, errors,
// p95 and cost per step of the range.

export async function analyticsOverview(context: AnalyticsContext): Promise<AnalyticsOverviewResult> {
  const { range } = context;
  const [current, previous] = await Promise.all([totalsAndSeries(context), rangeTotals(context, previousRange(range))]);
  return { range: describeRange(range), totals: current.totals, previous, series: current.series };
}

interface SumsRow {
  calls: number;
  errors: number;
  sessions: number;
  tokens: number;
  definitions: number;
  cost: number;
}

function sumsSql(costSql: string): string {
  return `coalesce(sum(r.calls), 0)::float8 as calls, coalesce(sum(${ERRORS_SQL}), 0)::float8 as errors,
          coalesce(sum(r.sessions), 0)::float8 as sessions,
          coalesce(sum(${TOKENS_SQL}), 0)::float8 as tokens, coalesce(sum(r.definition_tokens), 0)::float8 as definitions,
          coalesce(sum(${costSql}), 0)::float8 as cost`;
}

function totalsOf(
  row: SumsRow | undefined,
  clients: number,
  sketch: StoredSketch | undefined,
  toolSessions: number | null,
): OverviewTotals {
  const sums = row ?? { calls: 0, errors: 0, sessions: 0, tokens: 0, definitions: 0, cost: 0 };
  return {
    calls: sums.calls,
    errors: sums.errors,
    errorRate: roundRate(sums.errors, sums.calls),
    sessions: toolSessions ?? sums.sessions,
    clients,
    tokens: sums.tokens,
    definitionTokens: sums.definitions,
    cost: roundUsd(sums.cost),
    p50Ms: sketch?.quantile(0.5) ?? null,
    p95Ms: sketch?.quantile(0.95) ?? null,
  };
}

/** Under a tool filter, the sessions that called the tool (toolSessions.ts); otherwise null: the rollups' count. */
async function toolSessionCount(context: AnalyticsContext, range: TimeRange): Promise<number | null> {
  if (!context.filters.tool) return null;
  return (await sessionsCallingTool(context, range.fromMs, range.toMs, null)).get('') ?? 0;
}

/** Distinct clients with a call or a session in the range: the one total only the full key holds. */
async function clientCount(context: AnalyticsContext, range: TimeRange): Promise<number> {
  const scope = context.scope();
  const rows = await context.db.query<{ clients: number }>(
    `select count(distinct r.client_name)::int as clients from ${scope.source(range.fromMs, range.toMs, 'days', 'client_name, calls, sessions')} where r.calls > 0 or r.sessions > 0`,
    scope.params,
  );
  return rows[0]?.clients ?? 0;
}

export async function rangeTotals(context: AnalyticsContext, range: TimeRange): Promise<OverviewTotals> {
  const scope = context.scope();
  const source = scope.sums(range.fromMs, range.toMs, 'weeks');
  const [rows, clients, sketches, toolSessions] = await Promise.all([
    context.db.query<SumsRow>(`select ${sumsSql(scope.costSql)} from ${source} ${scope.priceJoin}`, scope.params),
    clientCount(context, range),
    mergedSketches(context, range.fromMs, range.toMs, 'weeks', 'workspace', 'null'),
    toolSessionCount(context, range),
  ]);
  return totalsOf(rows[0], clients, sketches.get(''), toolSessions);
}

/** `date_bin` of a rollup row's bucket to the range's step (aligned to the epoch: UTC hours and days). */
export function stepBin(range: TimeRange): string {
  return `date_bin('${stepMs(range.step) / 1000} seconds'::interval, r.bucket, 'epoch'::timestamptz)`;
}

/**
 * The range's totals and its series from one scan of the rows the series reads (grouping sets:
 * per step, and the whole range); the totals' percentiles merge the series' sketches, which cover
 * the range exactly as the totals' own would.
 */
async function totalsAndSeries(
  context: AnalyticsContext,
): Promise<{ totals: OverviewTotals; series: AnalyticsOverviewResult['series'] }> {
  const { range } = context;
  const scope = context.scope();
  const source = scope.sums(range.fromMs, range.toMs, coarsestFor(range.step));
  const bin = stepBin(range);
  const [rows, clients, sketches, toolSessions] = await Promise.all([
    context.db.query<SumsRow & { t: Date | string | null; whole: number }>(
      `select grouping(${bin}) as whole, ${bin} as t, ${sumsSql(scope.costSql)}
       from ${source} ${scope.priceJoin} group by grouping sets ((${bin}), ())`,
      scope.params,
    ),
    clientCount(context, range),
    mergedSketches(context, range.fromMs, range.toMs, coarsestFor(range.step), 'workspace', bin),
    toolSessionCount(context, range),
  ]);
  const byStart = new Map(rows.filter((row) => row.whole === 0).map((row) => [groupKey(row.t), row]));
  const whole = new StoredSketch();
  for (const sketch of sketches.values()) whole.merge(sketch);
  const series = seriesStarts(range).map((start) => {
    const t = new Date(start).toISOString();
    const row = byStart.get(t);
    return {
      t,
      calls: row?.calls ?? 0,
      errors: row?.errors ?? 0,
      p95Ms: sketches.get(t)?.quantile(0.95) ?? null,
      cost: roundUsd(row?.cost ?? 0),
    };
  });
  return {
    totals: totalsOf(
      rows.find((row) => row.whole === 1),
      clients,
      sketches.size > 0 ? whole : undefined,
      toolSessions,
    ),
    series,
  };
}
