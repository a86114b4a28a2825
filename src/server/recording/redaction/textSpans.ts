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

export function textSpans(rules: CompiledRules, text: string): Span[] {
  const spans: Span[] = [];
  const seen = rules.keywords?.seenIn(text) ?? new Set<string>();
  for (const { rule, hash } of rules.patterns) {
    if (rule.keywords.length > 0 && !rule.keywords.some((keyword) => seen.has(keyword))) continue;
    findPattern(rule, text, (start, end) => {
      if (!rules.allowlist.has(text.slice(start, end))) spans.push({ start, end, rule: rule.id, hash });
    });
  }
  for (const custom of rules.custom)
    findCustom(custom, text, (start, end) => {
      if (!rules.allowlist.has(text.slice(start, end))) spans.push({ start, end, rule: custom.id, hash: custom.hash });
    });
  return spans.length <= 1 ? spans : withoutOverlaps(spans);
}

function findPattern(rule: PatternRule, text: string, found: (start: number, end: number) => void): void {
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
    found(start, start + length);
    if (length < value.length) regex.lastIndex = start + length;
  }
}

function findCustom(rule: CustomRule, text: string, found: (start: number, end: number) => void): void {
  const matcher = rule.pattern.matcher(text);
  while (matcher.find()) {
    const group = rule.grouped && matcher.start(1) >= 0 ? 1 : 0;
    const start = matcher.start(group);
    const end = matcher.end(group);
    if (end > start) found(start, end);
  }
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
