import { formatMs } from '../../../src/client/components/analytics/format';

// Issue 38 item 2: the latency axis showed "2019…" for 2.02 s, read as 201 ms. From one second up a
// latency is in seconds, every label carries its unit, and none is longer than "12.5 s".
describe('formatMs', () => {
  it.each([
    [null, '—'],
    [0.42, '0.4 ms'],
    [38, '38 ms'],
    [220.4, '220 ms'],
    [999, '999 ms'],
    [1_000, '1.00 s'],
    [2_019, '2.02 s'],
    [12_480, '12.5 s'],
  ])('%p → %p', (value, text) => {
    expect(formatMs(value)).toBe(text);
  });

  it('never shows four digits of milliseconds', () => {
    for (let ms = 0; ms < 100_000; ms += 37) expect(formatMs(ms)).not.toMatch(/\d{4} ms/);
  });
});
