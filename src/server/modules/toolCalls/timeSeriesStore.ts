import type { Queryable } from '../../db/database';
import { DURATION_MS, type TimeSeries, type TimeSeriesInterval, type TimeSeriesPeriod, type TimeSeriesPoint } from '../../../contract/timeSeries';
import { percentileFromHistogram } from './durationPercentile';
import { sumHistograms } from './usageHistogram';
import { SqlConditions } from '../sessions/sqlConditions';

// Calls per bucket from the minute rollups (usage_minutes). Buckets are aligned to the UTC epoch
// (so 1d buckets start at UTC midnight); the last bucket is the current, partial one; every bucket
// of the period is returned, empty ones as zeros.

export interface TimeSeriesRequest {
  period: TimeSeriesPeriod;
  interval: TimeSeriesInterval;
  serverId?: string;
}

export async function toolCallTimeSeries(db: Queryable, workspaceId: string, request: TimeSeriesRequest, now: Date): Promise<TimeSeries> {
  const step = DURATION_MS[request.interval];
  const count = Math.max(1, Math.floor(DURATION_MS[request.period] / step));
  const lastStart = Math.floor(now.getTime() / step) * step;
  const firstStart = lastStart - (count - 1) * step;

  const where = new SqlConditions()
    .add((ws) => `u.workspace_id = ${ws}`, workspaceId)
    .add((from) => `u.bucket >= ${from}`, new Date(firstStart).toISOString())
    .add((to) => `u.bucket < ${to}`, new Date(lastStart + step).toISOString());
  if (request.serverId) where.add((id) => `u.server_id = ${id}`, request.serverId);
  const bin = `date_bin(${where.param(`${step / 1000} seconds`)}::interval, u.bucket, 'epoch'::timestamptz)`;

  const [sums, histograms] = await Promise.all([
    db.query<{ grp: Date | string; calls: number; errors: number; duration_sum: number; duration_max: number; tokens: number }>(
      `select ${bin} as grp, sum(u.calls)::int as calls, sum(u.errors)::int as errors, sum(u.duration_sum_ms)::float8 as duration_sum,
              max(u.duration_max_ms)::int as duration_max, sum(u.tokens)::float8 as tokens
       from usage_minutes u ${where.where} group by 1`,
      where.params,
    ),
    sumHistograms(db, { groupBy: bin, where: where.where, params: where.params }),
  ]);
  const byBucket = new Map(sums.map((row) => [new Date(row.grp).toISOString(), row]));

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
      p95DurationMs: percentileFromHistogram(histograms.get(bucket) ?? [], 0.95, row.duration_max),
      tokens: Math.round(row.tokens),
    });
  }
  return { period: request.period, interval: request.interval, points };
}
