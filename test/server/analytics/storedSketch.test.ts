import { LatencySketch } from '../../../src/server/recording/latencySketch';
import { parseIntArray, StoredSketch } from '../../../src/server/modules/analytics/storedSketch';

// Analytics answers a stored sketch's quantiles from its arrays as read (storedSketch.ts): one row
// walked as it is, several merged into a dense array. Every quantile must be the DDSketch's own
// answer for the same bins (a LatencySketch holding every value), zeros included.

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const QUANTILES = [0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 1];

describe('quantiles of sketches read from storage', () => {
  const next = random(11);
  const values = (): number[] =>
    Array.from({ length: 1 + Math.floor(next() * 600) }, () =>
      next() < 0.05 ? 0 : Math.round(Math.exp(next() * 9) * 10) / 10,
    );

  it('of one row are the DDSketch’s own', () => {
    const shapes: number[][] = [[0], [5], [0, 0, 3], [0.001, 1_000_000]];
    for (let s = 0; s < 150; s++) shapes.push(values());
    for (const shape of shapes) {
      const exact = new LatencySketch();
      for (const value of shape) exact.add(value);
      const { zeros, bins, counts } = exact.toArrays();
      const stored = new StoredSketch();
      stored.addArrays(zeros, Int32Array.from(bins), Int32Array.from(counts));
      expect(stored.count).toBe(shape.length);
      for (const q of QUANTILES) expect(stored.quantile(q)).toBe(exact.quantile(q));
    }
  });

  it('of several rows (merged, or added to one group) are those of the DDSketch of all their values', () => {
    for (let s = 0; s < 60; s++) {
      const exact = new LatencySketch();
      const group = new StoredSketch();
      const whole = new StoredSketch();
      const rows = 1 + Math.floor(next() * 6);
      for (let r = 0; r < rows; r++) {
        const row = new LatencySketch();
        for (const value of values()) {
          row.add(value);
          exact.add(value);
        }
        const { zeros, bins, counts } = row.toArrays();
        group.addArrays(zeros, bins, counts);
        const single = new StoredSketch();
        single.addArrays(zeros, bins, counts);
        whole.merge(single);
      }
      for (const q of QUANTILES) {
        expect(group.quantile(q)).toBe(exact.quantile(q));
        expect(whole.quantile(q)).toBe(exact.quantile(q));
      }
    }
  });

  it('do not depend on the order of a row’s bins, nor on bins without a count', () => {
    const exact = new LatencySketch();
    for (const value of values()) exact.add(value);
    const { zeros, bins, counts } = exact.toArrays();
    const order = bins.map((_, i) => i).reverse();
    const shuffled = new StoredSketch();
    shuffled.addArrays(zeros, [...order.map((i) => bins[i]), 12], [...order.map((i) => counts[i]), 0]);
    for (const q of QUANTILES) expect(shuffled.quantile(q)).toBe(exact.quantile(q));
  });

  it('are null for an empty sketch and 0 for zeros only', () => {
    const empty = new StoredSketch();
    empty.addArrays(0, [], []);
    expect(empty.quantile(0.5)).toBeNull();
    const zeros = new StoredSketch();
    zeros.addArrays(4, [], []);
    expect(zeros.quantile(0.99)).toBe(0);
  });

  it('reads the arrays as the database sends them (comma-separated)', () => {
    expect([...parseIntArray('-3,0,17,250')]).toEqual([-3, 0, 17, 250]);
    expect([...parseIntArray('')]).toEqual([]);
  });
});
