import { DDSketch } from '@datadog/sketches-js';

// Call durations as a DDSketch (relative accuracy 1 %): any quantile read from it is within 1 % of
// the exact value, and sketches merge by adding their bins, so the percentiles of a range are those
// of every call in it, whatever minutes, hours, servers or tools it spans (docs/analytics.md).
// Stored as the sketch's bins, { "<index>": count, "z": zeros }, a jsonb the database merges on
// conflict by adding counts (the rollup upserts of trafficSql.ts); the index is the sketch's own
// logarithmic mapping, so a stored sketch reads back into a DDSketch bin for bin.

export const SKETCH_RELATIVE_ACCURACY = 0.01;
export type SketchBins = Record<string, number>;
const ZERO_KEY = 'z';

export class LatencySketch {
  private readonly sketch = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });

  get count(): number {
    return this.sketch.count;
  }

  add(durationMs: number): void {
    this.sketch.accept(Math.max(0, durationMs));
  }

  /** Adds stored bins (one rollup row's sketch, or an SQL sum of several). */
  addBins(bins: SketchBins): void {
    for (const key in bins) this.addBin(key, bins[key]);
  }

  addBin(key: string, count: number): void {
    if (!(count > 0)) return;
    if (key === ZERO_KEY) this.sketch.zeroCount += count;
    else this.sketch.store.add(Number(key), count);
    this.sketch.count += count;
  }

  merge(other: LatencySketch): void {
    this.sketch.merge(other.sketch);
  }

  /** The bins to store. */
  toBins(): SketchBins {
    const bins: SketchBins = {};
    if (this.sketch.zeroCount > 0) bins[ZERO_KEY] = this.sketch.zeroCount;
    const store = this.sketch.store;
    for (let i = 0; i < store.bins.length; i++) if (store.bins[i] > 0) bins[String(i + store.offset)] = store.bins[i];
    return bins;
  }

  /** The value at quantile q (0..1), in ms to 2 decimals; null when empty. */
  quantile(q: number): number | null {
    if (this.sketch.count === 0) return null;
    return Math.round(this.sketch.getValueAtQuantile(q) * 100) / 100;
  }
}
