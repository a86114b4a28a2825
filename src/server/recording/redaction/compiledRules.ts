import { RE2JS } from 're2js';
import { RedactionText, type RedactionSettingsInput } from '../../../contract/redaction';
import { KeywordScan } from './keywordScan';
import {
  BUILTIN_RULES,
  enabledByDefault,
  KEY_RULES,
  PATTERN_RULES,
  type KeyRule,
  type PatternRule,
  type RuleInfo,
} from './builtinRules';

// A workspace's settings turned into what the redactor runs: the built-in rules it has on (with
// whether each hashes), its custom patterns compiled by RE2 (linear-time whatever a user writes:
// RE2 refuses backreferences and lookaround instead of backtracking), its JSON paths and its
// allowlist. Compiled once per change, shared by every message of the workspace.

export interface CustomRule {
  id: string;
  pattern: RE2JS;
  /** The pattern has a capture group: group 1 is the value (as in built-in rules). */
  grouped: boolean;
  hash: boolean;
}

export interface CompiledPath {
  segments: string[];
  tool: string | undefined;
}

export interface CompiledRules {
  /** What these were compiled from: what a redaction thread compiles again (redactionThread.ts). */
  settings: RedactionSettingsInput;
  patterns: { rule: PatternRule; hash: boolean }[];
  keys: { rule: KeyRule; hash: boolean }[];
  custom: CustomRule[];
  paths: CompiledPath[];
  allowlist: ReadonlySet<string>;
  /** Which rules' keywords a text holds (null: no rule on has keywords). */
  keywords: KeywordScan | null;
}

/** What a workspace without saved settings has: secrets on, personal data off, nothing else. */
export const DEFAULT_SETTINGS: RedactionSettingsInput = { rules: [], customPatterns: [], paths: [], allowlist: [] };

/** Why a custom pattern cannot be used (a 400's text), or null. */
export function customPatternProblem(id: string, pattern: string): string | null {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    return RedactionText.patternRefused(id, error instanceof Error ? error.message : String(error));
  }
  if (compiled.matcher('').find()) return RedactionText.patternMatchesEmpty(id);
  return null;
}

/** Why settings cannot be saved (a 400's text), or null. */
export function settingsProblem(settings: RedactionSettingsInput): string | null {
  const known = new Set(BUILTIN_RULES.map((rule) => rule.id));
  for (const rule of settings.rules) if (!known.has(rule.id)) return RedactionText.unknownRule(rule.id);
  const seen = new Set<string>();
  for (const custom of settings.customPatterns) {
    if (known.has(custom.id)) return RedactionText.customIdTaken(custom.id);
    if (seen.has(custom.id)) return RedactionText.duplicateCustomId(custom.id);
    seen.add(custom.id);
    const problem = customPatternProblem(custom.id, custom.pattern);
    if (problem) return problem;
  }
  return null;
}

/** `result.content[*].text` → ['result', 'content', '*', 'text'] (a leading `params.` is the request's params, the root). */
export function pathSegments(path: string): string[] {
  const segments = path
    .replace(/\[(\*|\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '');
  return segments[0] === 'params' ? segments.slice(1) : segments;
}

/** Compiles settings already checked by settingsProblem (a stored row that no longer compiles skips that pattern). */
export function compileRules(settings: RedactionSettingsInput): CompiledRules {
  const overrides = new Map(settings.rules.map((rule) => [rule.id, rule]));
  const on = (rule: RuleInfo) => overrides.get(rule.id)?.enabled ?? enabledByDefault(rule);
  const hashed = (id: string) => overrides.get(id)?.hash ?? false;
  const patterns = PATTERN_RULES.filter(on).map((rule) => ({ rule, hash: hashed(rule.id) }));
  const custom: CustomRule[] = [];
  for (const entry of settings.customPatterns) {
    if (customPatternProblem(entry.id, entry.pattern)) continue;
    const pattern = RE2JS.compile(entry.pattern);
    custom.push({ id: entry.id, pattern, grouped: pattern.groupCount() > 0, hash: entry.hash });
  }
  return {
    settings,
    patterns,
    keys: KEY_RULES.filter(on).map((rule) => ({ rule, hash: hashed(rule.id) })),
    custom,
    paths: settings.paths.map((entry) => ({ segments: pathSegments(entry.path), tool: entry.tool })),
    allowlist: new Set(settings.allowlist),
    keywords: patterns.some(({ rule }) => rule.keywords.length > 0)
      ? new KeywordScan(patterns.flatMap(({ rule }) => rule.keywords))
      : null,
  };
}
