import { ROLLUP_RETENTION_DAYS, type RangeRetention } from '../../../contract/retention';
import { DAY_MS } from './retentionPolicy';

// Whether a range reaches past what is kept (docs/analytics.md "Retention"): a screen that
// reads a range says so instead of showing zeros for the part that was deleted.

const HOUR_MS = 3_600_000;

/**
 * Since when the rollups still cover an instant: day rows reach furthest, but a range edge that
 * is not on a whole day is read from hour rows, and one not on a whole hour from minute rows
 * (analytics/timeRange.ts coverRange), which are kept shorter.
 */
function rollupsCover(edgeMs: number, nowMs: number): boolean {
  const keptSince = (days: number) => nowMs - days * DAY_MS;
  if (edgeMs % HOUR_MS !== 0) return edgeMs >= keptSince(ROLLUP_RETENTION_DAYS.minutes);
  if (edgeMs % DAY_MS !== 0) return edgeMs >= keptSince(ROLLUP_RETENTION_DAYS.hours);
  return edgeMs >= keptSince(ROLLUP_RETENTION_DAYS.days);
}

export function rangeRetention(range: { fromMs: number; toMs: number }, rawDays: number, nowMs: number): RangeRetention {
  const rawKeptSince = nowMs - rawDays * DAY_MS;
  return {
    rawKeptSince: new Date(rawKeptSince).toISOString(),
    rollupsKeptSince: new Date(nowMs - ROLLUP_RETENTION_DAYS.days * DAY_MS).toISOString(),
    reachesPastRaw: range.fromMs < rawKeptSince,
    reachesPastRollups: !rollupsCover(range.fromMs, nowMs) || !rollupsCover(range.toMs, nowMs),
  };
}
