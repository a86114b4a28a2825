import { DURATION_HISTOGRAM_BOUNDS_MS } from '../../../contract/sessions';

/**
 * Estimates a percentile (0..1) of call durations from histogram counts (DURATION_HISTOGRAM_BOUNDS_MS):
 * the upper bound of the bucket that holds it, never more than the slowest call seen. Null
 * without calls.
 */
export function percentileFromHistogram(counts: readonly number[], fraction: number, maxDurationMs: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.ceil(total * fraction);
  let seen = 0;
  for (let index = 0; index < counts.length; index += 1) {
    seen += counts[index];
    if (seen >= rank) {
      const bound = DURATION_HISTOGRAM_BOUNDS_MS[Math.min(index, DURATION_HISTOGRAM_BOUNDS_MS.length - 1)];
      return Math.min(bound, maxDurationMs);
    }
  }
  return maxDurationMs;
}
