import { binValueMs, keyAtRank, nearestRank } from '../../recording/latencySketch';

// A latency sketch as analytics reads it: the rows' stored sketches (zeros, bin indexes ascending,
// their counts: latencySketch.ts), kept as read, and quantiles answered from them with the rank,
// the bin and the mapping of LatencySketch.quantile — the same answers as merging them into one
// sketch (tested); the rank is the nearest rank (latencySketch.ts `nearestRank`). Most groups of a series are one stored row (a server's hour): their quantiles
// are a running count along that row's arrays, with no merge, no map and no sort. A group of
// several rows (a range's totals, the hour of an unfolded increment) is merged once, into a
// dense array over its bin indexes (a sketch's indexes span a few hundred at most).

/** Above this span of bin indexes the merge uses a map rather than a dense array. */
const DENSE_SPAN_LIMIT = 1 << 16;

interface Part {
  bins: ArrayLike<number>;
  counts: ArrayLike<number>;
  /** Its indexes (of nonzero counts) strictly ascending, as stored: quantiles can walk it as it is. */
  ascending: boolean;
}

export class StoredSketch {
  private parts: Part[] = [];
  private zeros = 0;
  private total = 0;
  /** Several parts merged: bin indexes ascending (nonzero counts only) and their running counts. */
  private merged: { keys: ArrayLike<number>; running: Float64Array } | null = null;

  /** Values in the sketch, zeros included. */
  get count(): number {
    return this.total;
  }

  /** Adds one stored sketch: zeros, bin indexes (ascending), their counts. The arrays are kept, not copied. */
  addArrays(zeros: number, bins: ArrayLike<number>, counts: ArrayLike<number>): void {
    this.merged = null;
    if (zeros > 0) {
      this.zeros += zeros;
      this.total += zeros;
    }
    let added = 0;
    let ascending = true;
    let last = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < counts.length; i++) {
      if (!(counts[i] > 0)) continue;
      added += counts[i];
      if (bins[i] <= last) ascending = false;
      last = bins[i];
    }
    if (added === 0) return;
    this.total += added;
    this.parts.push({ bins, counts, ascending });
  }

  merge(other: StoredSketch): void {
    this.merged = null;
    this.zeros += other.zeros;
    this.total += other.total;
    for (const part of other.parts) this.parts.push(part);
  }

  /** The value at quantile q (0..1) by the nearest rank (latencySketch.ts `nearestRank`), in ms to 2 decimals; null when empty. */
  quantile(q: number): number | null {
    if (this.total === 0) return null;
    const rank = nearestRank(q, this.total);
    if (rank < this.zeros) return 0;
    const target = rank - this.zeros;
    if (this.parts.length === 1 && this.parts[0].ascending) return binValueMs(singlePartKey(this.parts[0], target));
    const { keys, running } = (this.merged ??= mergeParts(this.parts));
    return binValueMs(keyAtRank(keys, running, target));
  }
}

/** The first bin of one stored sketch (indexes ascending) whose running count passes `target`; else its last. */
function singlePartKey({ bins, counts }: Part, target: number): number {
  let running = 0;
  let last = 0;
  for (let i = 0; i < bins.length; i++) {
    if (!(counts[i] > 0)) continue;
    last = bins[i];
    running += counts[i];
    if (running > target) return last;
  }
  return last;
}

/** Every part's bins summed: indexes ascending, with nonzero counts, and their running counts. */
function mergeParts(parts: readonly Part[]): { keys: ArrayLike<number>; running: Float64Array } {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const { bins, counts } of parts) {
    for (let i = 0; i < bins.length; i++) {
      if (!(counts[i] > 0)) continue;
      if (bins[i] < low) low = bins[i];
      if (bins[i] > high) high = bins[i];
    }
  }
  if (high - low < DENSE_SPAN_LIMIT) {
    const dense = new Float64Array(high - low + 1);
    for (const { bins, counts } of parts)
      for (let i = 0; i < bins.length; i++) if (counts[i] > 0) dense[bins[i] - low] += counts[i];
    let used = 0;
    for (let i = 0; i < dense.length; i++) if (dense[i] > 0) used++;
    const keys = new Int32Array(used);
    const running = new Float64Array(used);
    let sum = 0;
    for (let i = 0, j = 0; i < dense.length; i++) {
      if (dense[i] === 0) continue;
      sum += dense[i];
      keys[j] = i + low;
      running[j++] = sum;
    }
    return { keys, running };
  }
  const byKey = new Map<number, number>();
  for (const { bins, counts } of parts)
    for (let i = 0; i < bins.length; i++) if (counts[i] > 0) byKey.set(bins[i], (byKey.get(bins[i]) ?? 0) + counts[i]);
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  const running = new Float64Array(keys.length);
  let sum = 0;
  keys.forEach((key, i) => (running[i] = sum += byKey.get(key) as number));
  return { keys, running };
}

/** The integers of a comma-separated text ('-3,0,17'). */
export function parseIntArray(text: string): Int32Array {
  if (text.length === 0) return new Int32Array(0);
  let length = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) length++;
  const into = new Int32Array(length);
  let value = 0;
  let negative = false;
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      into[j++] = negative ? -value : value;
      value = 0;
      negative = false;
    } else if (c === 45) negative = true;
    else value = value * 10 + (c - 48);
  }
  into[j] = negative ? -value : value;
  return into;
}
