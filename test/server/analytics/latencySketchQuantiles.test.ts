import { LatencySketch } from '../../../src/server/recording/latencySketch';

// A sketch read from storage answers its quantiles from its bins sorted once, without copying them
// into the DDSketch's dense store (latencySketch.ts, quantileOfPending): every quantile must be the
// DDSketch's own answer for the same bins, zeros included.

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('quantiles of a stored sketch', () => {
  it('are the DDSketch’s own, for sketches with and without zeros, one value or many', () => {
    const next = random(7);
    const shapes: number[][] = [[0], [5], [0, 0, 3], Array.from({ length: 50 }, () => Math.round(next() * 10))];
    for (let s = 0; s < 200; s++)
      shapes.push(
        Array.from({ length: 1 + Math.floor(next() * 900) }, () =>
          next() < 0.05 ? 0 : Math.round(Math.exp(next() * 9)),
        ),
      );
    for (const values of shapes) {
      const source = new LatencySketch();
      for (const value of values) source.add(value);
      const { zeros, bins, counts } = source.toArrays();
      const stored = new LatencySketch();
      stored.addArrays(zeros, bins, counts);
      // Half of it added again, as a merge of rows does: the same bins twice.
      stored.addArrays(zeros, bins, counts);
      const settled = new LatencySketch();
      settled.addArrays(zeros, bins, counts);
      settled.addArrays(zeros, bins, counts);
      settled.toArrays(); // moves the bins into the DDSketch: its own quantiles from here
      // Merged into another stored sketch, the bins the same: the same quantiles.
      const merged = new LatencySketch();
      merged.addArrays(zeros, bins, counts);
      const other = new LatencySketch();
      other.addArrays(zeros, bins, counts);
      merged.merge(other);
      for (const q of [0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 1]) {
        expect(stored.quantile(q)).toBe(settled.quantile(q));
        expect(merged.quantile(q)).toBe(settled.quantile(q));
      }
    }
  });
});
