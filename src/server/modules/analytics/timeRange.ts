import {
  DEFAULT_ANALYTICS_RANGE,
  RANGE_MS,
  type AnalyticsRange,
  type ResolvedRange,
  type SeriesStep,
} from '../../../contract/analytics';
import type { RangeRetention } from '../../../contract/retention';
import { WEEK_ORIGIN_MS, type LatencyGrain, type TrafficGrain } from '../../recording/trafficSql';

// The time range of an analytics call and the rollup rows that cover it. Rollups exist per minute,
// hour and day (migration 011), all current; a range is read as whole days where it holds whole
// days, whole hours beside them, and minutes only at its ragged ends — so a 90-day range reads
// about 90 + 2·24 + 2·60 buckets per key, never a row per call (docs/analytics.md "Reading").

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const STEP_MS: Record<SeriesStep, number> = { '1m': MINUTE, '1h': HOUR, '1d': DAY };
const GRAIN_MS: Record<LatencyGrain, number> = { minutes: MINUTE, hours: HOUR, days: DAY, weeks: 7 * DAY };
/** Where a grain's buckets start: the epoch, except weeks (Mondays). */
const GRAIN_ORIGIN_MS: Record<LatencyGrain, number> = { minutes: 0, hours: 0, days: 0, weeks: WEEK_ORIGIN_MS };

export interface TimeRange {
  preset: AnalyticsRange | null;
  fromMs: number;
  toMs: number;
  step: SeriesStep;
  /** What of the range is kept (data/retention/rangeRetention.ts); absent where nobody asked. */
  retention?: RangeRetention;
}

/**
 * The range asked for: from/to in whole minutes (a started minute counts), or a preset in whole
 * hours (1 h and 6 h: whole minutes; 7 d and longer: whole UTC days), the last of them the current one (docs/analytics.md "Reading": a preset's ends fall on
 * hour rows, so it reads no minute rows; its end is exact, since nothing is stored after now).
 */
export function resolveRange(query: { range?: AnalyticsRange; from?: string; to?: string }, nowMs: number): TimeRange {
  if (query.from && query.to) {
    const fromMs = Math.floor(Date.parse(query.from) / MINUTE) * MINUTE;
    const toMs = Math.max(fromMs + MINUTE, Math.ceil(Date.parse(query.to) / MINUTE) * MINUTE);
    return { preset: null, fromMs, toMs, step: stepFor(toMs - fromMs) };
  }
  const preset = query.range ?? DEFAULT_ANALYTICS_RANGE;
  // The short presets (1 h, 6 h: minute steps) are the last minutes up to the current one; a whole
  // hour's rounding would make "1 h" mean "this hour". 24 h is whole hours. The day presets are
  // whole UTC days, today the last: "7 days" is 7 day columns, not the 8 that 7 × 24 h ending at the
  // next hour touched (issue 38).
  const span = RANGE_MS[preset];
  const unit = span < DAY ? MINUTE : span === DAY ? HOUR : DAY;
  const toMs = Math.floor(nowMs / unit) * unit + unit;
  return { preset, fromMs: toMs - RANGE_MS[preset], toMs, step: stepFor(RANGE_MS[preset]) };
}

/** Series points: minutes up to 6 hours, hours up to 8 days, days beyond. */
export function stepFor(spanMs: number): SeriesStep {
  if (spanMs <= 6 * HOUR) return '1m';
  if (spanMs <= 8 * DAY) return '1h';
  return '1d';
}

export function stepMs(step: SeriesStep): number {
  return STEP_MS[step];
}

/** The equal period right before the range. */
export function previousRange(range: TimeRange): TimeRange {
  const span = range.toMs - range.fromMs;
  return { ...range, preset: range.preset, fromMs: range.fromMs - span, toMs: range.fromMs };
}

export function describeRange(range: TimeRange): ResolvedRange {
  return {
    preset: range.preset,
    from: new Date(range.fromMs).toISOString(),
    to: new Date(range.toMs).toISOString(),
    step: range.step,
    ...(range.retention ? { retention: range.retention } : {}),
  };
}

/** Start of each series point of the range, oldest first (aligned to the step from the epoch, UTC). */
export function seriesStarts(range: TimeRange): number[] {
  const step = STEP_MS[range.step];
  const starts: number[] = [];
  for (let t = Math.floor(range.fromMs / step) * step; t < range.toMs; t += step) starts.push(t);
  return starts;
}

export interface CoverSegment {
  grain: LatencyGrain;
  fromMs: number;
  toMs: number;
}

/**
 * Rollup segments that together hold exactly [fromMs, toMs) (minute-aligned), using no grain
 * coarser than `coarsest` (a series by hour must not read day rows); `weeks`: whole weeks too,
 * where `coarsest` is days (only the sketch-only rollup has a week grain).
 */
export function coverRange(fromMs: number, toMs: number, coarsest: TrafficGrain, weeks = false): CoverSegment[] {
  const grains: LatencyGrain[] =
    coarsest === 'days'
      ? [...(weeks ? (['weeks'] as const) : []), 'days', 'hours', 'minutes']
      : coarsest === 'hours'
        ? ['hours', 'minutes']
        : ['minutes'];
  const segments: CoverSegment[] = [];
  const fill = (a: number, b: number, level: number): void => {
    if (a >= b) return;
    const grain = grains[level];
    const size = GRAIN_MS[grain];
    if (grain === 'minutes') {
      segments.push({ grain, fromMs: a, toMs: b });
      return;
    }
    const origin = GRAIN_ORIGIN_MS[grain];
    const start = origin + Math.ceil((a - origin) / size) * size;
    const end = origin + Math.floor((b - origin) / size) * size;
    if (start >= end) {
      fill(a, b, level + 1);
      return;
    }
    segments.push({ grain, fromMs: start, toMs: end });
    fill(a, start, level + 1);
    fill(end, b, level + 1);
  };
  fill(fromMs, toMs, 0);
  return segments;
}

/** The coarsest grain a series of this step may read. */
export function coarsestFor(step: SeriesStep): TrafficGrain {
  return step === '1d' ? 'days' : step === '1h' ? 'hours' : 'minutes';
}

/**
 * The end a range's rows may be read to: a preset ends after now (`nowMs`), and nothing is stored
 * after now, so its last, unfinished bucket of `coarsest` (the current day or week) is read whole
 * — one row instead of the hours or days of it so far, the same sums and sketches. A range ending
 * before `nowMs` is read to its end.
 */
export function readableEnd(toMs: number, nowMs: number, coarsest: LatencyGrain): number {
  if (toMs < nowMs) return toMs;
  const size = GRAIN_MS[coarsest];
  const origin = GRAIN_ORIGIN_MS[coarsest];
  return Math.max(toMs, origin + Math.ceil((nowMs + 1 - origin) / size) * size);
}
