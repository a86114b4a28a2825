import type { RiskFinding } from '../../../contract/toolRisk';
import { RISK_RULES, type RiskRule } from './riskRules';

// Applies the rules of riskRules.ts to one definition. Pure and synchronous: discovery calls it
// when it stores a definition, and the proxy calls it on a tools/list answer before the agent
// gets it (so it stays a handful of regular expressions over a few strings).
export interface RiskContext {
  /** Tool names of the workspace's other servers (for shadowing); none when unknown. */
  otherServersToolNames?: Iterable<string>;
}

const EXCERPT_MAX = 160;
const MATCHES_PER_TEXT = 5;

/** Every string of a definition with its JSON pointer; parameter names come separately. */
function textsOf(value: unknown, path: string, out: { path: string; text: string }[]): void {
  if (typeof value === 'string') out.push({ path: path || '/', text: value });
  else if (Array.isArray(value)) value.forEach((item, i) => textsOf(item, `${path}/${i}`, out));
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value as Record<string, unknown>))
      textsOf(child, `${path}/${pointerPart(key)}`, out);
}

function parameterNamesOf(value: unknown, path: string, out: { path: string; text: string }[]): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childPath = `${path}/${pointerPart(key)}`;
    if (key === 'properties' && child && typeof child === 'object' && !Array.isArray(child))
      for (const name of Object.keys(child)) out.push({ path: `${childPath}/${pointerPart(name)}`, text: name });
    parameterNamesOf(child, childPath, out);
  }
}

const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Invisible and control characters written as U+XXXX, so an excerpt shows what hides in it. */
export function visible(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const hidden =
      (code >= 0xe0000 && code <= 0xe007f) ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x2069) ||
      code === 0xfeff ||
      code === 0x180e ||
      code === 0x00ad ||
      (code < 0x20 && code !== 0x0a);
    out += hidden ? `U+${code.toString(16).toUpperCase().padStart(4, '0')} ` : char;
  }
  return out;
}

function around(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 30);
  const end = Math.min(text.length, index + length + 30);
  const excerpt = `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  return excerpt.length > EXCERPT_MAX ? `${excerpt.slice(0, EXCERPT_MAX - 1)}…` : excerpt;
}

/** Tag characters spell ASCII: the decoded hidden text is the clearest excerpt. */
function codepointMatch(
  rule: RiskRule,
  text: string,
  ranges: [number, number][],
): { match: string; excerpt: string } | null {
  const inRange = (code: number) => ranges.some(([low, high]) => code >= low && code <= high);
  // Code points, not grapheme clusters: each invisible character is judged on its own.
  const chars = Array.from(text);
  const first = chars.findIndex((c) => inRange(c.codePointAt(0) ?? 0));
  if (first < 0) return null;
  if (rule.id === 'hidden_unicode_tags') {
    const decoded = chars
      .filter((c) => inRange(c.codePointAt(0) ?? 0))
      .map((c) => String.fromCodePoint((c.codePointAt(0) ?? 0) - 0xe0000))
      .join('')
      .replace(/[^\x20-\x7e]/g, '');
    const excerpt = `hidden text: "${decoded.slice(0, EXCERPT_MAX - 20)}"`;
    return { match: excerpt, excerpt };
  }
  const prefix = chars.slice(0, first).join('');
  return { match: visible(chars[first]).trim(), excerpt: visible(around(text, prefix.length, 1)) };
}

/** Whole-word mention of a name (names are matched as written, tool names being identifiers). */
function mentions(text: string, name: string): number {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).exec(text);
  return match ? match.index : -1;
}

/** Generic words ("search", "read") are not worth a finding; identifiers like send_email are. */
const distinctive = (name: string) => name.length >= 4 && /[_\-.]|[a-z][A-Z]|\d/.test(name);

export function assessDefinition(definition: Record<string, unknown>, context: RiskContext = {}): RiskFinding[] {
  const texts: { path: string; text: string }[] = [];
  textsOf(definition, '', texts);
  const parameters: { path: string; text: string }[] = [];
  parameterNamesOf(definition, '', parameters);
  const ownName = typeof definition.name === 'string' ? definition.name : '';
  const others = [...(context.otherServersToolNames ?? [])].filter((n) => n !== ownName && distinctive(n));

  const findings: RiskFinding[] = [];
  const add = (rule: RiskRule, path: string, match: string, excerpt: string) =>
    findings.push({ ruleId: rule.id, title: rule.title, severity: rule.severity, path, match, excerpt });

  for (const rule of RISK_RULES) {
    const { matcher } = rule;
    if (matcher.kind === 'parameterNames') {
      for (const { path, text } of parameters)
        if (matcher.patterns.some((p) => p.test(text)) && !matcher.except.some((p) => p.test(text)))
          add(rule, path, text, text);
      continue;
    }
    for (const { path, text } of texts) {
      if (path === '/name') continue;
      if (matcher.kind === 'codepoints') {
        const found = codepointMatch(rule, text, matcher.ranges);
        if (found) add(rule, path, found.match, found.excerpt);
      } else if (matcher.kind === 'phrases') {
        // Every distinct trigger counts: a change that adds a second credential path beside a
        // known one adds risk. A trigger inside another of the same rule (id_rsa in ~/.ssh/id_rsa)
        // is the same finding.
        const seen = new Set<string>();
        const spans: [number, number][] = [];
        for (const pattern of matcher.patterns) {
          for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) {
            const trigger = visible(match[0])
              .trim()
              .replace(/[.,;:]+$/, '');
            const end = match.index + match[0].length;
            if (spans.some(([from, to]) => match.index >= from && end <= to)) continue;
            if (seen.has(trigger.toLowerCase()) || seen.size >= MATCHES_PER_TEXT) continue;
            seen.add(trigger.toLowerCase());
            spans.push([match.index, end]);
            add(rule, path, trigger, visible(around(text, match.index, match[0].length)));
          }
        }
      } else {
        for (const name of others) {
          const at = mentions(text, name);
          if (at >= 0) {
            add(rule, path, name, visible(around(text, at, name.length)));
            break;
          }
        }
      }
    }
  }
  return findings;
}

const findingKey = (f: RiskFinding) => `${f.ruleId}\u0000${f.match.toLowerCase()}`;

/** The high findings of `after` that `before` did not have (a change that adds risk). */
export function introducedHighFindings(before: RiskFinding[], after: RiskFinding[]): RiskFinding[] {
  const known = new Set(before.map(findingKey));
  return after.filter((f) => f.severity === 'high' && !known.has(findingKey(f)));
}
