import type { Queryable } from '../../db/database';
import {
  DURATION_MS,
  type TimeSeries,
  type TimeSeriesInterval,
  type TimeSeriesPeriod,
  type TimeSeriesPoint,
} from '../../../contract/timeSeries';
import type { TrafficGrain } from '../../recording/trafficSql';
import { analyticsContext } from '../analytics/analyticsContext';
import { ERRORS_SQL, groupKey, TOKENS_SQL } from '../analytics/rollupScope';
import { mergedSketches } from '../analytics/sketchReads';

// The activity stream's calls over time, from the analytics rollups read by the analytics code:
// calls, errors and tokens as /analytics/* count them (tokens from the tokenizer, tool definitions
// included, as the totals), and p95 from the merged latency sketches — the figure the dashboard and
// the analytics screens show (issue 29: this chart read a duration histogram whose bucket bounds
// put p95 up to 10× off). Buckets are aligned to the UTC epoch (1d buckets start at UTC midnight);
// the last bucket is the current, partial one; every bucket of the period is returned, empty ones
// as zeros.

export interface TimeSeriesRequest {
  period: TimeSeriesPeriod;
  interval: TimeSeriesInterval;
  serverId?: string;
}

const HOUR = 3_600_000;

/** The coarsest rollup rows a step can be read from: a row never spans two buckets of the step. */
function grainOf(stepMs: number): TrafficGrain {
  if (stepMs % (24 * HOUR) === 0) return 'days';
  if (stepMs % HOUR === 0) return 'hours';
  return 'minutes';
}

export async function toolCallTimeSeries(
  db: Queryable,
  workspaceId: string,
  request: TimeSeriesRequest,
  now: Date,
): Promise<TimeSeries> {
  const step = DURATION_MS[request.interval];
  const count = Math.max(1, Math.floor(DURATION_MS[request.period] / step));
  const lastStart = Math.floor(now.getTime() / step) * step;
  const firstStart = lastStart - (count - 1) * step;
  const endMs = lastStart + step;

  const context = await analyticsContext(
    db,
    workspaceId,
    { from: new Date(firstStart).toISOString(), to: new Date(endMs).toISOString(), serverId: request.serverId },
    now.getTime(),
  );
  const coarsest = grainOf(step);
  const bin = `date_bin('${step / 1000} seconds'::interval, r.bucket, 'epoch'::timestamptz)`;
  const scope = context.scope();
  const [sums, sketches] = await Promise.all([
    context.db.query<{ t: Date | string; calls: number; errors: number; duration_sum: number; tokens: number }>(
      `select ${bin} as t, sum(r.calls)::float8 as calls, sum(${ERRORS_SQL})::float8 as errors,
              sum(r.duration_sum_ms)::float8 as duration_sum, sum(${TOKENS_SQL})::float8 as tokens
       from ${scope.source(firstStart, endMs, coarsest)} group by 1`,
      scope.params,
    ),
    mergedSketches(context, firstStart, endMs, coarsest, request.serverId ? 'server' : 'workspace', bin),
  ]);
  const byBucket = new Map(sums.map((row) => [groupKey(row.t), row]));

  const points: TimeSeriesPoint[] = [];
  for (let start = firstStart; start <= lastStart; start += step) {
    const bucket = new Date(start).toISOString();
    const row = byBucket.get(bucket);
    if (!row || row.calls === 0) {
      points.push({ bucket, calls: 0, errors: 0, avgDurationMs: null, tokens: 0 });
      continue;
    }
    points.push({
      bucket,
      calls: row.calls,
      errors: row.errors,
      avgDurationMs: Math.round((row.duration_sum / row.calls) * 10) / 10,
      p95DurationMs: sketches.get(bucket)?.quantile(0.95) ?? null,
      tokens: Math.round(row.tokens),
    });
  }
  return { period: request.period, interval: request.interval, points };
}
