import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import o200kBase, { countTokens as tokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import {
  ASCII_SELF_CHECK,
  countAsciiTokens,
  newPieceCache,
  type PieceCounter,
} from '../../../src/server/recording/o200kAscii';
import { countsAsciiWithoutRegex, countTokens } from '../../../src/server/recording/tokenCounter';
import { TokenizerThread } from '../../../src/server/recording/tokenizerThread';

// ASCII texts are cut into o200k_base's pieces by a scan of character codes instead of the
// tokenizer's Unicode regex (o200kAscii.ts): the counts must be the tokenizer's own, exactly —
// the pieces the same as the regex's, piece for piece, on texts built to hit every alternative of
// the pattern, on random texts over an alphabet of its edge characters, and on real files.

const AS_IS = { disallowedSpecial: new Set<string>() };
// The tokenizer's own split pattern (not in its typed exports: its CommonJS internals only, which
// an import cannot name — the package exports them under the `require` condition alone).
const { O200K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/cjs/encodingParams/constants') as {
  O200K_TOKEN_SPLIT_REGEX: RegExp;
};

/** The pieces the scan cuts: a counter that records them. */
function scannedPieces(text: string): string[] | null {
  const pieces: string[] = [];
  const recorder: PieceCounter = {
    getBpeRankFromString: (piece) => {
      pieces.push(piece);
      return 0;
    },
    bytePairEncode: () => [],
  };
  return countAsciiTokens(text, recorder) === -1 ? null : pieces;
}

function regexPieces(text: string): string[] {
  return [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))].map((match) => match[0]);
}

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

// Every class the pattern tells apart: white space of each kind, line breaks, both cases, the
// contraction letters, digits, symbols (the apostrophe and slash among them), control characters.
const ALPHABET = [
  ' ',
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u000c',
  "'",
  '/',
  '.',
  '-',
  '"',
  '{',
  '}',
  ':',
  ',',
  '0',
  '1',
  '9',
  'a',
  'b',
  's',
  't',
  'l',
  'v',
  'e',
  'r',
  'd',
  'm',
  'A',
  'B',
  'S',
  'T',
  'L',
  'V',
  'E',
  'R',
  'D',
  'M',
  'x',
  'Q',
  '\u0000',
  '\u007f',
  '_',
  '$',
  '%',
];

describe('o200k_base counts of ASCII texts without the tokenizer’s regex', () => {
  it('cuts the regex’s pieces and counts the tokenizer’s tokens on random texts over the pattern’s edge characters', () => {
    const next = random(3);
    for (let t = 0; t < 4000; t++) {
      const length = Math.floor(next() * 40);
      let text = '';
      for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      expect(scannedPieces(text)).toEqual(regexPieces(text));
      expect(countTokens(text)).toBe(tokenizerCount(text, AS_IS));
    }
  });

  it('counts what the tokenizer counts on the self-check texts, JSON, prose and this repository’s files', () => {
    const texts = [
      ...ASCII_SELF_CHECK,
      JSON.stringify({ path: '/srv/a b/c.md', query: "don't stop", n: [1, 22, 333, 4444] }),
      '<|endoftext|> quoted',
    ];
    const dirs = ['docs', 'src/server/recording', 'src/server/modules/analytics'];
    for (const dir of dirs)
      for (const name of readdirSync(dir))
        if (/\.(md|ts)$/.test(name)) texts.push(readFileSync(join(dir, name), 'utf8'));
    for (const text of texts) {
      const pieces = scannedPieces(text);
      if (pieces !== null) expect(pieces).toEqual(regexPieces(text));
      expect(countTokens(text)).toBe(tokenizerCount(text, AS_IS));
    }
  });

  it('counts right from its piece cache, filled past its bound many times', () => {
    // The encoder's piece counter is private to GptEncoding: this test reaches in on purpose.
    const { bytePairEncodingCoreProcessor: pieces } = o200kBase as unknown as {
      bytePairEncodingCoreProcessor: PieceCounter;
    };
    const cache = newPieceCache();
    const next = random(11);
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./\u0000';
    // 40,000 texts of random words (1–12 characters), each word seen
    // again later, so counts come from the cache after it started afresh several times.
    const words = Array.from({ length: 20_000 }, () => {
      let word = ' ';
      const length = 1 + Math.floor(next() * 12);
      for (let i = 0; i < length; i++) word += letters[Math.floor(next() * letters.length)];
      return word;
    });
    for (let t = 0; t < 40_000; t++) {
      const text = words[t % words.length] + words[(t * 7919) % words.length] + '\n';
      expect(countAsciiTokens(text, pieces, cache)).toBe(tokenizerCount(text, AS_IS));
    }
    expect(cache.size).toBeLessThanOrEqual((cache.mask + 1) / 2);
  });

  it('leaves a text with a character outside ASCII to the tokenizer, wherever it stands', () => {
    expect(scannedPieces('caf\u00e9')).toBeNull();
    const next = random(5);
    for (let t = 0; t < 500; t++) {
      let text = '';
      for (let i = 0; i < 30; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      const at = Math.floor(next() * 31);
      const mixed = text.slice(0, at) + ['\u00e9', '\u00a0', '\u65e5', '\u2028'][t % 4] + text.slice(at);
      expect(scannedPieces(mixed)).toBeNull();
      expect(countTokens(mixed)).toBe(tokenizerCount(mixed, AS_IS));
    }
    expect(countTokens('naïve café 日本')).toBe(tokenizerCount('naïve café 日本', AS_IS));
  });

  it('is used on the recorder’s thread and on the tokenizer thread, and both count alike', async () => {
    expect(countsAsciiWithoutRegex()).toBe(true);
    const thread = TokenizerThread.shared();
    expect(thread).not.toBeNull();
    expect(await thread!.countsAsciiWithoutRegex()).toBe(true);
    const texts = ['Found 12 matching lines.\nline 0: revenue rose 7%', "it's HTTPServer's   \n\n/x", 'naïve', ''];
    expect(await thread!.count(texts)).toEqual(
      texts.map((text) => (text.length === 0 ? 0 : tokenizerCount(text, AS_IS))),
    );
  });
});
