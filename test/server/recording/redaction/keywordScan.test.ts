import { KeywordScan } from '../../../../src/server/recording/redaction/keywordScan';

// The prefilter decides whether a rule runs at all: a keyword it misses is a secret stored. It
// must see keywords in any case, inside other keywords, and after common ones were seen.
describe('keyword prefilter', () => {
  const scan = new KeywordScan(['sk_live', 'live', 'ey', 'key', 'ghp_']);

  it('sees every keyword the text holds, in any case, including one that starts inside another', () => {
    expect([...scan.seenIn('The KEY is sk_LIVE_abc')].sort()).toEqual(['ey', 'key', 'live', 'sk_live']);
  });

  it('keeps looking for the unseen keywords after a common one, to the end of the text', () => {
    const text = `${'they key eye '.repeat(10_000)}ghp_token`;
    expect([...scan.seenIn(text)].sort()).toEqual(['ey', 'ghp_', 'key']);
  });

  it('sees nothing in a text without keywords, and the same answer twice (its scans are reused)', () => {
    expect(scan.seenIn('nothing to find here').size).toBe(0);
    expect([...scan.seenIn('ghp_ then key')].sort()).toEqual(['ey', 'ghp_', 'key']);
    expect([...scan.seenIn('ghp_ then key')].sort()).toEqual(['ey', 'ghp_', 'key']);
  });
});
