import type { Queryable } from '../../db/database';
import type { AlertMetric, AlertScope } from '../../../contract/alertRules';
import { analyticsContext } from '../analytics/analyticsContext';
import { mergedSketches } from '../analytics/sketchReads';
import { ERRORS_SQL, TOKENS_SQL, type RollupScope } from '../analytics/rollupScope';
import { StoredSketch } from '../analytics/storedSketch';
import { isLatencyMetric, MINUTE_MS } from './evaluation';

// What an alert rule reads: the minute rollups of its scope over a span, through the analytics
// code every screen reads (RollupScope for the sums, mergedSketches for percentiles), so a rule's
// "error rate" is /analytics' error rate. One read serves one live evaluation (the window) or a
// whole 7-day preview (then every window is a slice of it).
interface MinuteSums {
  calls: number;
  errors: number;
  sessions: number;
  tokens: number;
  cost: number;
}

export interface RuleSeries {
  minutes: Map<number, MinuteSums>;
  sketches: Map<number, StoredSketch>;
  /** When each client × tool pair was first called (only for new_tool_client). */
  firstSeen: number[];
}

export async function readRuleSeries(
  db: Queryable,
  workspaceId: string,
  rule: { metric: AlertMetric; scope: AlertScope },
  fromMs: number,
  toMs: number,
): Promise<RuleSeries> {
  const context = await analyticsContext(
    db,
    workspaceId,
    { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), ...rule.scope },
    toMs,
  );
  const series: RuleSeries = { minutes: new Map(), sketches: new Map(), firstSeen: [] };
  if (isLatencyMetric(rule.metric)) {
    const level = rule.scope.tool ? 'tool' : rule.scope.serverId ? 'server' : 'workspace';
    const sketches = await mergedSketches(context, fromMs, toMs, 'minutes', level, 'r.bucket');
    for (const [bucket, sketch] of sketches) series.sketches.set(Date.parse(bucket), sketch);
    return series;
  }
  if (rule.metric === 'new_tool_client') {
    series.firstSeen = await firstCalls(context.db, context.scope(), toMs);
    return series;
  }
  const scope = context.scope();
  const source = scope.sums(fromMs, toMs, 'minutes');
  const rows = await context.db.query<{
    bucket: Date | string;
    calls: number;
    errors: number;
    sessions: number;
    tokens: number;
    cost: number;
  }>(
    `select r.bucket, sum(r.calls)::float8 as calls, sum(${ERRORS_SQL})::float8 as errors,
            sum(r.sessions)::float8 as sessions, sum(${TOKENS_SQL})::float8 as tokens,
            sum(${scope.costSql})::float8 as cost
       from ${source} ${scope.priceJoin} group by r.bucket`,
    scope.params,
  );
  for (const row of rows) {
    const bucket = new Date(row.bucket).getTime();
    series.minutes.set(bucket, {
      calls: row.calls,
      errors: row.errors,
      sessions: row.sessions,
      tokens: row.tokens,
      cost: row.cost,
    });
  }
  return series;
}

/** First call of each client × tool pair in the scope (minute rows are kept for ever). */
async function firstCalls(db: Queryable, scope: RollupScope, toMs: number): Promise<number[]> {
  const source = scope.source(0, toMs, 'minutes', 'bucket, client_name, tool_name, calls');
  const rows = await db.query<{ first: Date | string }>(
    `select min(r.bucket) as first from ${source} where r.tool_name <> '' and r.calls > 0 group by r.client_name, r.tool_name`,
    scope.params,
  );
  return rows.map((r) => new Date(r.first).getTime());
}

/** The metric over [endMs − windowMs, endMs): null when it has no value (a rate of no calls). */
export function windowValue(series: RuleSeries, metric: AlertMetric, endMs: number, windowMs: number): number | null {
  const startMs = endMs - windowMs;
  if (metric === 'new_tool_client') return series.firstSeen.filter((t) => t >= startMs && t < endMs).length;
  if (isLatencyMetric(metric)) {
    const parts: StoredSketch[] = [];
    for (let t = startMs; t < endMs; t += MINUTE_MS) {
      const sketch = series.sketches.get(t);
      if (sketch) parts.push(sketch);
    }
    if (parts.length === 0) return null;
    const q = metric === 'latency_p50' ? 0.5 : metric === 'latency_p95' ? 0.95 : 0.99;
    const merged = new StoredSketch();
    for (const part of parts) merged.merge(part);
    return merged.quantile(q);
  }
  const total: MinuteSums = { calls: 0, errors: 0, sessions: 0, tokens: 0, cost: 0 };
  for (let t = startMs; t < endMs; t += MINUTE_MS) {
    const sums = series.minutes.get(t);
    if (!sums) continue;
    total.calls += sums.calls;
    total.errors += sums.errors;
    total.sessions += sums.sessions;
    total.tokens += sums.tokens;
    total.cost += sums.cost;
  }
  switch (metric) {
    case 'error_rate':
      return total.calls === 0 ? null : Math.round((total.errors / total.calls) * 10_000) / 100;
    case 'cost':
      return Math.round(total.cost * 1e6) / 1e6;
    case 'calls':
    case 'errors':
    case 'sessions':
    case 'tokens':
      return total[metric];
    default:
      return null;
  }
}
