import { z } from 'zod';
import { uuid } from './queryFields';

// The activity stream's calls-over-time chart (GET …/tool-calls/time-series): periods, intervals
// and the points of one series.

export const TIME_SERIES_PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;
export type TimeSeriesPeriod = (typeof TIME_SERIES_PERIODS)[number];
export const TIME_SERIES_INTERVALS = ['1m', '5m', '15m', '1h', '1d'] as const;
export type TimeSeriesInterval = (typeof TIME_SERIES_INTERVALS)[number];
export const DURATION_MS: Record<TimeSeriesPeriod | TimeSeriesInterval, number> = {
  '1m': 60_000,
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '1d': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
};
/** The interval used when a period is asked for without one. */
export const DEFAULT_INTERVAL: Record<TimeSeriesPeriod, TimeSeriesInterval> = {
  '1h': '1m',
  '6h': '5m',
  '24h': '1h',
  '7d': '1h',
  '30d': '1d',
};
export const TIME_SERIES_MAX_POINTS = 1500;

export const TimeSeriesQuery = z
  .object({
    period: z.enum(TIME_SERIES_PERIODS, { error: `Expected one of ${TIME_SERIES_PERIODS.join(', ')}` }).default('24h'),
    interval: z
      .enum(TIME_SERIES_INTERVALS, { error: `Expected one of ${TIME_SERIES_INTERVALS.join(', ')}` })
      .optional(),
    serverId: uuid.optional(),
  })
  .refine((q) => !q.interval || DURATION_MS[q.interval] <= DURATION_MS[q.period], {
    error: 'Must not be longer than the period',
    path: ['interval'],
  })
  .refine((q) => !q.interval || DURATION_MS[q.period] / DURATION_MS[q.interval] <= TIME_SERIES_MAX_POINTS, {
    error: `Too many points for this period (at most ${TIME_SERIES_MAX_POINTS})`,
    path: ['interval'],
  });
export type TimeSeriesQuery = z.input<typeof TimeSeriesQuery>;

export const TimeSeriesPoint = z.object({
  /** Start of the bucket (ISO, UTC). */
  bucket: z.string(),
  calls: z.number().int(),
  errors: z.number().int(),
  avgDurationMs: z.number().nullable(),
  /** From the merged latency sketches, as every p95 of the analytics screens; absent when the bucket has no calls. */
  p95DurationMs: z.number().nullable().optional(),
  tokens: z.number().int(),
});
export type TimeSeriesPoint = z.infer<typeof TimeSeriesPoint>;

export const TimeSeries = z.object({
  period: z.enum(TIME_SERIES_PERIODS),
  interval: z.enum(TIME_SERIES_INTERVALS),
  /** Oldest first; every bucket of the period is present (zeros where nothing happened). */
  points: z.array(TimeSeriesPoint),
});
export type TimeSeries = z.infer<typeof TimeSeries>;
