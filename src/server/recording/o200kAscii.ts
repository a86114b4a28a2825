// o200k_base token counts of ASCII text without the tokenizer's split regex (docs/analytics.md
// "Token counting"). gpt-tokenizer cuts a text into pieces with o200k's pattern (a Unicode
// regex: \p{L}, \p{N}, lookahead) and looks each piece up in its ranks, merging byte pairs for a
// piece not found; the regex took ~2/3 of the counting time on the recorder's texts. For a text
// of ASCII characters only, `countAsciiTokens` cuts the same pieces with a scan of character
// codes, and counts each with the tokenizer's own lookup and merge: the same count (tested
// against the tokenizer, piece for piece and count for count). A text with any other character
// is left to the tokenizer (-1).
//
// The function is self-contained — no import, no outer name — because the tokenizer thread runs
// it from its source text (tokenizerThread.ts); each side checks it against the tokenizer on
// ASCII_SELF_CHECK before using it, and counts with the tokenizer alone if it disagrees.

/** The tokenizer's per-piece steps (gpt-tokenizer's BytePairEncodingCore). */
export interface PieceCounter {
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): number[];
}

/**
 * Tokens of `text` cut as o200k_base's pattern cuts it, -1 when it holds a character outside
 * ASCII. For ASCII the pattern's alternatives, tried in order at each position, are:
 *   1. [^\r\n A-Za-z0-9]? [A-Z]* [a-z]+ contraction?
 *   2. [^\r\n A-Za-z0-9]? [A-Z]+ [a-z]* contraction?
 *   3. [0-9]{1,3}
 *   4. ' '? [^\s A-Za-z0-9]+ [\r\n/]*
 *   5. \s* [\r\n]+        (up to the last line break of a run of white space)
 *   6. \s+ (?!\S)         (a run at the end; else the run but its last character)
 *   7. \s+
 * with contraction = '(s|d|m|t|ll|ve|re), any case, and \s = tab, line feed, \v, \f, \r, space.
 */
export function countAsciiTokens(text: string, counter: PieceCounter, cache?: PieceCache): number {
  const n = text.length;
  let tokens = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // Only a piece's first character is read here; those after it are read by the loops below,
    // which stop at any character above 127 (none of their classes holds one): checked here next.
    if (c > 127) return -1;
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    const digit = c >= 48 && c <= 57;
    let end = -1;
    // 1 and 2: an optional prefix (anything but \r, \n, a letter or a digit), then letters.
    const start = !letter && !digit && c !== 10 && c !== 13 ? i + 1 : i;
    const first = start < n ? text.charCodeAt(start) : -1;
    if ((first >= 65 && first <= 90) || (first >= 97 && first <= 122)) {
      let k = start;
      while (k < n) {
        const u = text.charCodeAt(k);
        if (u < 65 || u > 90) break;
        k++;
      }
      // Lower case after the upper case run (1), or none (2: the run holds one letter at least).
      while (k < n) {
        const l = text.charCodeAt(k);
        if (l < 97 || l > 122) break;
        k++;
      }
      // A contraction: ' then s, d, m, t, ll, ve or re, in any case.
      if (k + 1 < n && text.charCodeAt(k) === 39) {
        const a = text.charCodeAt(k + 1) | 32;
        const b = k + 2 < n ? text.charCodeAt(k + 2) | 32 : -1;
        if (a === 115 || a === 100 || a === 109 || a === 116) k += 2;
        else if ((a === 108 && b === 108) || (a === 118 && b === 101) || (a === 114 && b === 101)) k += 3;
      }
      end = k;
    } else if (digit) {
      // 3: up to three digits.
      end = i + 1;
      while (end < n && end < i + 3) {
        const d = text.charCodeAt(end);
        if (d < 48 || d > 57) break;
        end++;
      }
    } else {
      // 4: an optional space, then symbols (not white space, letters or digits), then line breaks and slashes.
      const from = c === 32 ? i + 1 : i;
      const s = from < n ? text.charCodeAt(from) : -1;
      const symbol =
        s >= 0 &&
        s <= 127 &&
        !(s === 32 || (s >= 9 && s <= 13)) &&
        !((s >= 65 && s <= 90) || (s >= 97 && s <= 122)) &&
        !(s >= 48 && s <= 57);
      if (symbol) {
        let k = from + 1;
        while (k < n) {
          const p = text.charCodeAt(k);
          if (
            p > 127 ||
            p === 32 ||
            (p >= 9 && p <= 13) ||
            (p >= 65 && p <= 90) ||
            (p >= 97 && p <= 122) ||
            (p >= 48 && p <= 57)
          )
            break;
          k++;
        }
        while (k < n) {
          const p = text.charCodeAt(k);
          if (p !== 10 && p !== 13 && p !== 47) break;
          k++;
        }
        end = k;
      } else {
        // 5, 6, 7: c is white space (every other character was taken above).
        let k = i;
        let lastBreak = -1;
        while (k < n) {
          const w = text.charCodeAt(k);
          if (!(w === 32 || (w >= 9 && w <= 13))) break;
          if (w === 10 || w === 13) lastBreak = k;
          k++;
        }
        if (lastBreak >= 0) end = lastBreak + 1;
        else if (k === n || k - i === 1) end = k;
        else end = k - 1;
      }
    }
    tokens +=
      cache && end - i <= cache.maxLength
        ? cachedCount(text, i, end, counter, cache)
        : pieceCount(text.slice(i, end), counter);
    i = end;
  }
  return tokens;

  function pieceCount(piece: string, pieces: PieceCounter): number {
    return pieces.getBpeRankFromString(piece) !== undefined ? 1 : pieces.bytePairEncode(piece).length;
  }

  // The count of text[from, to) from the cache (FNV-1a of its characters, open addressing, the
  // piece compared character by character): no string cut, no hash of a new string, no probe of
  // the tokenizer's 200,000-entry map for a piece seen before.
  function cachedCount(source: string, from: number, to: number, pieces: PieceCounter, known: PieceCache): number {
    let hash = -2128831035;
    for (let p = from; p < to; p++) hash = Math.imul(hash ^ source.charCodeAt(p), 16777619);
    let slot = hash & known.mask;
    for (;;) {
      const piece = known.pieces[slot];
      if (piece === undefined) break;
      if (known.hashes[slot] === hash && piece.length === to - from) {
        let same = true;
        for (let p = 0; p < piece.length; p++) {
          if (piece.charCodeAt(p) !== source.charCodeAt(from + p)) {
            same = false;
            break;
          }
        }
        if (same) return known.counts[slot];
      }
      slot = (slot + 1) & known.mask;
    }
    // A copy of the piece, not a slice: a slice would keep the whole text alive in the cache.
    const piece = Buffer.from(source.slice(from, to), 'latin1').toString('latin1');
    const count = pieceCount(piece, pieces);
    if (known.size >= (known.mask + 1) >> 1) {
      // Half full: started afresh (the pieces in use come back at once).
      known.pieces.fill(undefined);
      known.size = 0;
      slot = hash & known.mask;
    }
    known.pieces[slot] = piece;
    known.hashes[slot] = hash;
    known.counts[slot] = count;
    known.size++;
    return count;
  }
}

/** Token counts of pieces already seen (countAsciiTokens): one per thread, bounded. */
export interface PieceCache {
  mask: number;
  hashes: Int32Array;
  counts: Int32Array;
  pieces: (string | undefined)[];
  size: number;
  /** Longer pieces are counted without the cache (rare: long words, runs of symbols or spaces). */
  maxLength: number;
}

/** A cache of 16,384 slots, holding at most 8,192 pieces of up to 32 characters (self-contained, as countAsciiTokens). */
export function newPieceCache(): PieceCache {
  const slots = 1 << 14;
  return {
    mask: slots - 1,
    hashes: new Int32Array(slots),
    counts: new Int32Array(slots),
    pieces: new Array<string | undefined>(slots).fill(undefined),
    size: 0,
    maxLength: 32,
  };
}

/**
 * Texts that take every branch of the scan (and a few that must be left to the tokenizer): a
 * side uses countAsciiTokens only when it gives the tokenizer's count for each.
 */
export const ASCII_SELF_CHECK: readonly string[] = [
  `{"path":"/srv/data/project-7/notes-1207.md","query":"quarterly revenue by region 11","limit":20}`,
  'Found 12 matching lines.\nline 0: revenue for region 3 rose 0% against the previous quarter\r\n\r\n  \t x',
  "HTTPServer don't WE'LL they'RE I'm it's you'd ABC'S x'Ve  'hello\t\tworld  \n\n  end   ",
  "a   b\n\n\n/path//to\n/x ...\n/ 1234567 ;;; \u000b\u000cdone\u0000\u0007 '' 's'",
  '   ',
  '\n',
  'caf\u00e9 na\u00efve \u65e5\u672c',
];
