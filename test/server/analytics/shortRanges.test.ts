import { resolveRange } from '../../../src/server/modules/analytics/timeRange';
import { AnalyticsQuery } from '../../../src/contract/analytics';

// Issue 38: the shortest analytics range was 24 h. 1 h and 6 h are the last minutes up to the
// current one, in minute steps; the longer presets keep their whole hours.
describe('the short analytics ranges', () => {
  const now = Date.parse('2026-11-28T08:23:41.500Z');

  it('1 h is the last 60 minutes, ending with the current minute, in minute steps', () => {
    const range = resolveRange({ range: '1h' }, now);
    expect(new Date(range.toMs).toISOString()).toBe('2026-11-28T08:24:00.000Z');
    expect(new Date(range.fromMs).toISOString()).toBe('2026-11-28T07:24:00.000Z');
    expect(range.step).toBe('1m');
  });

  it('6 h is the last 360 minutes, in minute steps', () => {
    const range = resolveRange({ range: '6h' }, now);
    expect(range.toMs - range.fromMs).toBe(6 * 3_600_000);
    expect(new Date(range.toMs).toISOString()).toBe('2026-11-28T08:24:00.000Z');
    expect(range.step).toBe('1m');
  });

  it('24 h keeps whole hours', () => {
    const range = resolveRange({ range: '24h' }, now);
    expect(new Date(range.toMs).toISOString()).toBe('2026-11-28T09:00:00.000Z');
    expect(range.step).toBe('1h');
  });

  it('7 d is 7 whole UTC days, today the last (7 day columns, not 8)', () => {
    const range = resolveRange({ range: '7d' }, now);
    expect(new Date(range.fromMs).toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(new Date(range.toMs).toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(range.step).toBe('1h');
  });

  it('accepts the new presets and still refuses an unknown one', () => {
    expect(AnalyticsQuery.safeParse({ range: '1h' }).success).toBe(true);
    expect(AnalyticsQuery.safeParse({ range: '6h' }).success).toBe(true);
    expect(AnalyticsQuery.safeParse({ range: '2h' }).success).toBe(false);
  });
});
