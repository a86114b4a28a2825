import type { AnalyticsOverviewResult, OverviewTotals } from '../../../contract/analytics';
import { roundUsd } from '../../../contract/pricing';
import type { AnalyticsContext } from './analyticsContext';
import { ERRORS_SQL, groupKey, roundRate, TOKENS_SQL } from './rollupScope';
import { mergedSketches } from './sketchReads';
import { coarsestFor, describeRange, previousRange, seriesStarts, stepMs, type TimeRange } from './timeRange';

// GET …/analytics/overview: the range's totals against the period before it, and calls, errors,
// p95 and cost per step of the range.

export async function analyticsOverview(context: AnalyticsContext): Promise<AnalyticsOverviewResult> {
  const { range } = context;
  const [totals, previous, series] = await Promise.all([rangeTotals(context, range), rangeTotals(context, previousRange(range)), rangeSeries(context)]);
  return { range: describeRange(range), totals, previous, series };
}

export async function rangeTotals(context: AnalyticsContext, range: TimeRange): Promise<OverviewTotals> {
  const scope = context.scope();
  const source = scope.source(range.fromMs, range.toMs, 'days');
  const [rows, sketches] = await Promise.all([
    context.db.query<{ calls: number; errors: number; sessions: number; clients: number; tokens: number; cost: number }>(
      `select coalesce(sum(r.calls), 0)::float8 as calls, coalesce(sum(${ERRORS_SQL}), 0)::float8 as errors,
              coalesce(sum(r.sessions), 0)::float8 as sessions,
              count(distinct r.client_name) filter (where r.calls > 0 or r.sessions > 0)::int as clients,
              coalesce(sum(${TOKENS_SQL}), 0)::float8 as tokens, coalesce(sum(${scope.costSql}), 0)::float8 as cost
       from ${source} ${scope.priceJoin}`,
      scope.params,
    ),
    mergedSketches(context, range.fromMs, range.toMs, 'weeks', 'server', 'null'),
  ]);
  const row = rows[0];
  const sketch = sketches.get('');
  return {
    calls: row.calls,
    errors: row.errors,
    errorRate: roundRate(row.errors, row.calls),
    sessions: row.sessions,
    clients: row.clients,
    tokens: row.tokens,
    cost: roundUsd(row.cost),
    p50Ms: sketch?.quantile(0.5) ?? null,
    p95Ms: sketch?.quantile(0.95) ?? null,
  };
}

/** `date_bin` of a rollup row's bucket to the range's step (aligned to the epoch: UTC hours and days). */
export function stepBin(range: TimeRange): string {
  return `date_bin('${stepMs(range.step) / 1000} seconds'::interval, r.bucket, 'epoch'::timestamptz)`;
}

async function rangeSeries(context: AnalyticsContext): Promise<AnalyticsOverviewResult['series']> {
  const { range } = context;
  const scope = context.scope();
  const source = scope.source(range.fromMs, range.toMs, coarsestFor(range.step));
  const bin = stepBin(range);
  const [rows, sketches] = await Promise.all([
    context.db.query<{ t: Date | string; calls: number; errors: number; cost: number }>(
      `select ${bin} as t, sum(r.calls)::float8 as calls, sum(${ERRORS_SQL})::float8 as errors, sum(${scope.costSql})::float8 as cost
       from ${source} ${scope.priceJoin} group by 1`,
      scope.params,
    ),
    mergedSketches(context, range.fromMs, range.toMs, coarsestFor(range.step), 'server', bin),
  ]);
  const byStart = new Map(rows.map((row) => [groupKey(row.t), row]));
  return seriesStarts(range).map((start) => {
    const t = new Date(start).toISOString();
    const row = byStart.get(t);
    return { t, calls: row?.calls ?? 0, errors: row?.errors ?? 0, p95Ms: sketches.get(t)?.quantile(0.95) ?? null, cost: roundUsd(row?.cost ?? 0) };
  });
}
