import type { PatternRule } from './builtinRules';
import type { CompiledRules, CustomRule } from './compiledRules';

// Where the pattern rules find values in one string: every rule runs on the original text (a
// placeholder is never matched again), then overlapping finds are resolved — the one that starts
// first wins, the longer on a tie — so each character is replaced at most once.

export interface Span {
  start: number;
  end: number;
  rule: string;
  hash: boolean;
}

/** What a text with nothing to redact gets (most texts): shared, never changed. */
const NO_SPANS: readonly Span[] = Object.freeze([]);

export function textSpans(rules: CompiledRules, text: string): readonly Span[] {
  // Indexed loops, and no closure in this function: a closure over the loop's variables made V8
  // allocate a context per rule per string, for every string of every recorded message — the
  // recording path's largest allocation (issue 39).
  const seen = rules.keywords?.seenIn(text);
  const patterns = rules.patterns;
  let found: Found | undefined;
  for (let i = 0; i < patterns.length; i++) {
    const rule = patterns[i].rule;
    if (rule.keywords.length > 0 && (seen === undefined || !holdsAny(seen, rule.keywords))) continue;
    found = findPattern(rule, patterns[i].hash, text, found ?? { spans: [], allowlist: rules.allowlist });
  }
  for (let i = 0; i < rules.custom.length; i++)
    found = findCustom(rules.custom[i], text, found ?? { spans: [], allowlist: rules.allowlist });
  const spans = found?.spans;
  if (spans === undefined || spans.length === 0) return NO_SPANS;
  return spans.length === 1 ? spans : withoutOverlaps(spans);
}

/** The spans found so far in one text, and what keeps a value from being one. */
interface Found {
  spans: Span[];
  allowlist: ReadonlySet<string>;
}

function add(found: Found, text: string, start: number, end: number, rule: string, hash: boolean): void {
  if (!found.allowlist.has(text.slice(start, end))) found.spans.push({ start, end, rule, hash });
}

function holdsAny(seen: ReadonlySet<string>, keywords: readonly string[]): boolean {
  if (seen.size === 0) return false;
  for (let i = 0; i < keywords.length; i++) if (seen.has(keywords[i])) return true;
  return false;
}

function findPattern(rule: PatternRule, hash: boolean, text: string, found: Found): Found {
  const regex = rule.regex;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    // Group 1, when the pattern has one, is the value; the rest is context (a key name, a delimiter).
    const [start, end] = match.indices?.[1] ?? [match.index, match.index + match[0].length];
    if (end === start) {
      regex.lastIndex = match.index + 1;
      continue;
    }
    const value = text.slice(start, end);
    const length = rule.check ? rule.check(value) : value.length;
    if (length === 0) {
      // A candidate that fails its check may hold a value further on: look again one character later.
      regex.lastIndex = match.index + 1;
      continue;
    }
    if (rule.allow?.test(value.slice(0, length))) continue;
    add(found, text, start, start + length, rule.id, hash);
    if (length < value.length) regex.lastIndex = start + length;
  }
  return found;
}

function findCustom(rule: CustomRule, text: string, found: Found): Found {
  const matcher = rule.pattern.matcher(text);
  while (matcher.find()) {
    const group = rule.grouped && matcher.start(1) >= 0 ? 1 : 0;
    const start = matcher.start(group);
    const end = matcher.end(group);
    if (end > start) add(found, text, start, end, rule.id, rule.hash);
  }
  return found;
}

function withoutOverlaps(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Span[] = [];
  let reached = -1;
  for (const span of spans) {
    if (span.start < reached) continue;
    kept.push(span);
    reached = span.end;
  }
  return kept;
}
