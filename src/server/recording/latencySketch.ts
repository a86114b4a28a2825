import { DDSketch } from '@datadog/sketches-js';

// Call durations as a DDSketch (relative accuracy 1 %): any quantile read from it is within 1 % of
// the exact value, and sketches merge by adding their bins, so the percentiles of a range are those
// of every call in it, whatever minutes, hours, servers or tools it spans (docs/analytics.md).
// Stored as the sketch's zeros and two int arrays, bin indexes (ascending) and their counts, which
// the database merges on conflict by adding counts of equal bins (trafficSql.ts, migration 021); the
// index is the sketch's own logarithmic mapping, so a stored sketch reads back into a DDSketch bin
// for bin. (Before 021 the bins were a jsonb object, { "<index>": count, "z": zeros }: toBins.)

export const SKETCH_RELATIVE_ACCURACY = 0.01;
export type SketchBins = Record<string, number>;
const ZERO_KEY = 'z';
const MAPPING = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY }).mapping;

/** The value a bin index stands for, in ms to 2 decimals: what a quantile landing in that bin answers. */
export function binValueMs(index: number): number {
  return Math.round(MAPPING.value(index) * 100) / 100;
}

/**
 * The one definition of a quantile every figure uses (docs/analytics.md "Quantile"): the
 * **nearest rank** — the smallest recorded duration with at least q·n of the n calls at or below
 * it, i.e. the value of 0-based rank ⌈q·n⌉ − 1 in ascending order. So p95 of 10 calls is the
 * slowest, p50 of 10 the 5th, p0 the fastest. (DDSketch's own getValueAtQuantile interpolates
 * the rank as q·(n − 1), lower: p95 of 10 calls would be the second slowest, which a user reading
 * "95 % of calls were at most this" does not expect.) The sketch answers that value within 1 %.
 */
export function nearestRank(q: number, count: number): number {
  // A hair below q·n first: 0.95 · 20 is 19.000000000000004 in floating point, whose ceiling is 20.
  return Math.max(0, Math.ceil(q * count - 1e-9) - 1);
}

/**
 * The first bin whose running count passes `target` (DenseStore.keyAtRank, lower): `keys` are bin
 * indexes ascending, `running` their counts added up in that order.
 */
export function keyAtRank(keys: ArrayLike<number>, running: ArrayLike<number>, target: number): number {
  let low = 0;
  let high = keys.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (running[mid] > target) high = mid;
    else low = mid + 1;
  }
  return keys[low];
}

export class LatencySketch {
  private readonly sketch = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });
  /**
   * Bins added from storage, kept apart until a quantile is asked: merging thousands of rollup rows
   * bin by bin into the DDSketch's dense store cost ~7 µs a bin, a Map ~0.1 µs (docs/benchmarks.md).
   */
  private readonly pending = new Map<number, number>();
  private pendingZeros = 0;
  private pendingCount = 0;
  /** The pending bins ascending with their running counts, for quantiles read without settling (quantileOfPending). */
  private ranked: { keys: number[]; running: number[] } | null = null;

  get count(): number {
    return this.sketch.count + this.pendingCount;
  }

  add(durationMs: number): void {
    this.sketch.accept(Math.max(0, durationMs));
  }

  /** Adds stored bins (one rollup row's sketch). */
  addBins(bins: SketchBins): void {
    for (const key in bins) this.addBin(key, bins[key]);
  }

  /** Adds a sketch stored as arrays (the latency_* rows of migration 021): zeros, bin indexes, their counts. */
  addArrays(zeros: number, bins: readonly number[], counts: readonly number[]): void {
    this.ranked = null;
    if (zeros > 0) {
      this.pendingZeros += zeros;
      this.pendingCount += zeros;
    }
    for (let i = 0; i < bins.length; i++) {
      const count = counts[i];
      if (!(count > 0)) continue;
      this.pendingCount += count;
      this.pending.set(bins[i], (this.pending.get(bins[i]) ?? 0) + count);
    }
  }

  addBin(key: string, count: number): void {
    this.ranked = null;
    if (!(count > 0)) return;
    this.pendingCount += count;
    if (key === ZERO_KEY) this.pendingZeros += count;
    else {
      const index = Number(key);
      this.pending.set(index, (this.pending.get(index) ?? 0) + count);
    }
  }

  merge(other: LatencySketch): void {
    // A sketch read from storage merges bin for bin into the pending bins, left as they are (its
    // own quantiles are still read from them: quantileOfPending).
    if (other.sketch.count === 0) {
      this.ranked = null;
      for (const [index, count] of other.pending) this.pending.set(index, (this.pending.get(index) ?? 0) + count);
      this.pendingZeros += other.pendingZeros;
      this.pendingCount += other.pendingCount;
      return;
    }
    other.settle();
    this.sketch.merge(other.sketch);
  }

  /** The bins to store. */
  toBins(): SketchBins {
    this.settle();
    const bins: SketchBins = {};
    if (this.sketch.zeroCount > 0) bins[ZERO_KEY] = this.sketch.zeroCount;
    const store = this.sketch.store;
    for (let i = 0; i < store.bins.length; i++) if (store.bins[i] > 0) bins[String(i + store.offset)] = store.bins[i];
    return bins;
  }

  /** The bins to store as arrays (migration 021): zeros, bin indexes ascending, their counts. */
  toArrays(): { zeros: number; bins: number[]; counts: number[] } {
    this.settle();
    const bins: number[] = [];
    const counts: number[] = [];
    const store = this.sketch.store;
    for (let i = 0; i < store.bins.length; i++) {
      if (store.bins[i] > 0) {
        bins.push(i + store.offset);
        counts.push(store.bins[i]);
      }
    }
    return { zeros: this.sketch.zeroCount, bins, counts };
  }

  /** The value at quantile q (0..1) by the nearest rank (`nearestRank`), in ms to 2 decimals; null when empty. */
  quantile(q: number): number | null {
    if (this.sketch.count === 0 && this.pendingCount > 0) return this.quantileOfPending(q);
    const { zeros, bins, counts } = this.toArrays();
    if (this.sketch.count === 0) return null;
    const rank = nearestRank(q, this.sketch.count);
    if (rank < zeros) return 0;
    let total = 0;
    const running = counts.map((count) => (total += count));
    return binValueMs(keyAtRank(bins, running, rank - zeros));
  }

  /**
   * A quantile of a sketch read from storage only (nothing added value by value), straight from its
   * bins sorted once: the same rank, bin and mapping as `quantile` answers once settled, without copying the bins into its dense store first — which, for the 840
   * sketches of a 7-day series by server and hour, cost more than reading them.
   */
  private quantileOfPending(q: number): number {
    if (!this.ranked) {
      const keys = [...this.pending.keys()].sort((a, b) => a - b);
      let total = 0;
      this.ranked = { keys, running: keys.map((key) => (total += this.pending.get(key) as number)) };
    }
    const rank = nearestRank(q, this.pendingCount);
    if (rank < this.pendingZeros) return 0;
    const { keys, running } = this.ranked;
    return Math.round(this.sketch.mapping.value(keyAtRank(keys, running, rank - this.pendingZeros)) * 100) / 100;
  }

  /** Moves the pending bins into the sketch (each distinct bin once). */
  private settle(): void {
    this.ranked = null;
    if (this.pendingCount === 0) return;
    for (const [index, count] of this.pending) this.sketch.store.add(index, count);
    this.sketch.zeroCount += this.pendingZeros;
    this.sketch.count += this.pendingCount;
    this.pending.clear();
    this.pendingZeros = 0;
    this.pendingCount = 0;
  }
}
