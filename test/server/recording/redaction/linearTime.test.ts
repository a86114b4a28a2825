import { BUILTIN_RULES, PATTERN_RULES } from '../../../../src/server/recording/redaction/builtinRules';
import { compileRules } from '../../../../src/server/recording/redaction/compiledRules';
import { textSpans } from '../../../../src/server/recording/redaction/textSpans';
import { CORPUS } from '../../helpers/redactionCorpus';

// The built-in patterns run on V8's backtracking engine, so each must be linear-time by its
// construction (docs/security.md "Linear time"): every repetition bounded, no quantifier on a
// group that holds another, starts anchored by a literal, a boundary or a lookbehind. This test
// checks the construction on the pattern text, then runs every rule over 4 MiB of near-matches —
// its near-misses and its keywords repeated, its values cut short and chained — and expects each
// run to finish with its answer (a quadratic pattern would not finish within the test's time).

const FOUR_MIB = 4 * 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(FOUR_MIB / unit.length)).slice(0, FOUR_MIB);

/** Quantifiers without an upper bound: *, +, {n,}. */
const UNBOUNDED = /(?<!\\)(?:[*+]|\{\d+,\})/;
/** A group closed and then repeated, whose body holds a quantifier. */
function quantifiedGroupHoldingQuantifier(source: string): boolean {
  const stack: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      // Skip a character class.
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      continue;
    }
    if (c === '(') stack.push(i);
    if (c === ')') {
      const open = stack.pop() ?? 0;
      const next = source[i + 1];
      const body = source
        .slice(open + 1, i)
        .replace(/\\./g, '')
        .replace(/\[[^\]]*\]/g, '');
      // An optional group (`?`) is one more alternative, not a repetition.
      if ((next === '{' || next === '*' || next === '+') && /[{*+?]/.test(body.replace(/^\?(?:<?[=!]|:)/, '')))
        return true;
    }
  }
  return false;
}

const onlyRule = (id: string) =>
  compileRules({
    rules: BUILTIN_RULES.map((rule) => ({ id: rule.id, enabled: rule.id === id, hash: false })),
    customPatterns: [],
    paths: [],
    allowlist: [],
  });

describe('linear-time patterns', () => {
  it.each(PATTERN_RULES.map((rule) => [rule.id, rule.regex.source] as const))(
    '%s: bounded repetitions, no quantified group holding a quantifier',
    (_id, source) => {
      expect(UNBOUNDED.test(source.replace(/\[[^\]]*\]/g, ''))).toBe(false);
      expect(quantifiedGroupHoldingQuantifier(source)).toBe(false);
    },
  );

  it('the construction check catches the patterns it must refuse', () => {
    expect(UNBOUNDED.test('a+b')).toBe(true);
    expect(UNBOUNDED.test('a{2,}')).toBe(true);
    expect(quantifiedGroupHoldingQuantifier('(?:a{1,4}b){2,3}')).toBe(true);
    expect(quantifiedGroupHoldingQuantifier('(?:ab|cd){2}x{1,3}')).toBe(false);
  });

  it.each(PATTERN_RULES.map((rule) => [rule.id] as const))('%s: 4 MiB of near-matches finish', (id) => {
    const rules = onlyRule(id);
    const entry = CORPUS[id];
    const rule = PATTERN_RULES.find((candidate) => candidate.id === id)!;
    for (const nearMiss of entry.nearMisses)
      expect(textSpans(rules, fill(`${nearMiss} `)).length).toBeGreaterThanOrEqual(0);
    for (const keyword of rule.keywords) expect(textSpans(rules, keyword + fill('a1B2')).length).toBeLessThanOrEqual(1);
    for (const keyword of rule.keywords) expect(textSpans(rules, fill(keyword)).length).toBeGreaterThanOrEqual(0);
    for (const { value } of entry.positives) {
      // The value cut short, chained: each candidate runs into the next one.
      expect(textSpans(rules, fill(value.slice(0, -1))).length).toBeGreaterThanOrEqual(0);
    }
  });

  it.each(['a', '0', '0 ', 'a@', ':', 'a.', '-', 'ey', 'password=', '://a:', 'Bearer ', 'A1'])(
    'all rules together on 4 MiB of %j',
    (unit) => {
      const rules = compileRules({
        rules: BUILTIN_RULES.map((rule) => ({ id: rule.id, enabled: true, hash: false })),
        customPatterns: [],
        paths: [],
        allowlist: [],
      });
      expect(textSpans(rules, fill(unit)).length).toBeGreaterThanOrEqual(0);
    },
  );
});
