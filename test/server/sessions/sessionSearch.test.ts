import { likePattern, toSearchQuery } from '../../../src/server/modules/sessions/sessionSearch';
import { percentileFromHistogram } from '../../../src/server/modules/toolCalls/durationPercentile';
import { durationHistogramIndex } from '../../../src/contract/sessions';

describe('session text search query', () => {
  it('turns every part of every typed word into a required prefix', () => {
    expect(toSearchQuery('read_file')).toBe("'read':* & 'file':*");
    expect(toSearchQuery('  Quarter  REV ')).toBe("'quarter':* & 'rev':*");
    expect(toSearchQuery('/etc/ho /etc')).toBe("'etc':* & 'ho':*");
    expect(toSearchQuery('résumé')).toBe("'résumé':*");
  });

  it('cannot be broken out of by quotes or operators, and yields nothing for punctuation only', () => {
    expect(toSearchQuery("a' | !b & c:*")).toBe("'a':* & 'b':* & 'c':*");
    expect(toSearchQuery('%% ::')).toBeNull();
    expect(likePattern('100%_\\')).toBe('%100\\%\\_\\\\%');
  });
});

describe('duration percentile from the histogram', () => {
  const histogram = (durations: number[]) => {
    const counts = new Array<number>(12).fill(0);
    for (const d of durations) counts[durationHistogramIndex(d)] += 1;
    return counts;
  };

  it('reports the upper bound of the bucket holding the percentile, capped by the slowest call', () => {
    const durations = [...Array.from({ length: 95 }, () => 8), 400, 400, 400, 400, 400];
    expect(percentileFromHistogram(histogram(durations), 0.95, 400)).toBe(10);
    expect(percentileFromHistogram(histogram(durations), 0.99, 400)).toBe(400);
    expect(percentileFromHistogram(histogram([60_000]), 0.95, 60_000)).toBe(60_000);
    expect(percentileFromHistogram(histogram([]), 0.95, 0)).toBeNull();
  });
});
