// gitleaks' prefilter: a rule runs on a text only when the text holds one of its keywords. Which
// keywords a text holds is found case-insensitively in one pass, however many rules are on: a
// regular expression of every keyword not seen yet, searched from where the last one was found,
// and narrowed to the keywords still unseen after each find. A text is scanned once, and the
// scan stops at the ~40 distinct keywords, not at every occurrence of a common one ("ey" is in
// every "key"). Each search starts one character past the last find, so a keyword that starts
// inside another is found too — without a lookahead, which made the scan of a text holding no
// keyword (most texts) ~1.8× slower (docs/benchmarks.md, issue 39).

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Narrowed scans are kept by the keywords they look for; past this many the cache starts again. */
const MAX_CACHED_SCANS = 512;
/** What a text without keywords holds (most texts): shared, not a new Set per text. */
const NONE: ReadonlySet<string> = new Set<string>();

export class KeywordScan {
  /** Longest first: at one position the longest keyword is found; shorter ones there are its prefixes. */
  private readonly keywords: string[];
  /** Each keyword → itself and the keywords that are its prefixes (seen where it is seen). */
  private readonly prefixes: Map<string, string[]>;
  private readonly scans = new Map<string, RegExp>();
  /** The scan for every keyword: most texts hold none, and are searched once with it. */
  private readonly full: RegExp;

  constructor(keywords: Iterable<string>) {
    this.keywords = [...new Set(keywords)].sort((a, b) => b.length - a.length);
    this.prefixes = new Map(this.keywords.map((k) => [k, this.keywords.filter((other) => k.startsWith(other))]));
    this.full = scanOf(this.keywords);
  }

  /** The keywords (lowercase) the text holds. */
  seenIn(text: string): ReadonlySet<string> {
    this.full.lastIndex = 0;
    let match = this.full.exec(text);
    if (match === null) return NONE;
    const seen = new Set<string>();
    let unseen = this.keywords;
    while (match !== null) {
      for (const keyword of this.prefixes.get(match[0].toLowerCase()) ?? []) seen.add(keyword);
      unseen = unseen.filter((keyword) => !seen.has(keyword));
      if (unseen.length === 0) break;
      const scan = this.scanFor(unseen);
      scan.lastIndex = match.index + 1;
      match = scan.exec(text);
    }
    return seen;
  }

  private scanFor(keywords: string[]): RegExp {
    if (keywords === this.keywords) return this.full;
    const key = keywords.join('\u0000');
    let scan = this.scans.get(key);
    if (!scan) {
      if (this.scans.size >= MAX_CACHED_SCANS) this.scans.clear();
      scan = scanOf(keywords);
      this.scans.set(key, scan);
    }
    return scan;
  }
}

function scanOf(keywords: string[]): RegExp {
  return new RegExp(keywords.map(escapeRegExp).join('|'), 'gi');
}
