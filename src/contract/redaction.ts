import { z } from 'zod';

// A workspace's redaction settings (docs/security.md): what the recorder replaces before anything
// is journaled or stored. Built-in rules are on or off (secrets on, personal data off by default);
// custom patterns (RE2 syntax: linear-time, checked by the server), JSON paths and an allowlist
// are the workspace's own.

export const REDACTION_CATEGORIES = ['secret', 'personal'] as const;
export type RedactionCategory = (typeof REDACTION_CATEGORIES)[number];

/** What a redacted value becomes: `[REDACTED:<rule>]`, or `[REDACTED:<rule>:<hash prefix>]`. */
export const REDACTED_PLACEHOLDER = /\[REDACTED:[a-z0-9][a-z0-9-]{0,63}(?::[0-9a-f]{12})?\]/g;

const RuleId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'A rule id is lowercase letters, digits and dashes (e.g. internal-token)');

export const RedactionRuleDto = z.object({
  id: z.string(),
  title: z.string(),
  category: z.enum(REDACTION_CATEGORIES),
  /** Where the rule comes from (gitleaks, Toolscope). */
  source: z.string(),
  enabled: z.boolean(),
  /** The placeholder carries a keyed hash of the value (equal values correlate). */
  hash: z.boolean(),
});
export type RedactionRuleDto = z.infer<typeof RedactionRuleDto>;

export const CustomPattern = z.object({
  id: RuleId,
  pattern: z.string().min(1, 'A pattern is required').max(512, 'A pattern is at most 512 characters'),
  hash: z.boolean().default(false),
});
export type CustomPattern = z.infer<typeof CustomPattern>;

export const RedactionPath = z.object({
  /** `arguments.password`, `result.content[*].text`: from a request's params, or a response's `result`/`error`. */
  path: z
    .string()
    .max(300, 'A path is at most 300 characters')
    .regex(
      /^[A-Za-z_$][\w$-]{0,63}(?:\.[A-Za-z_$][\w$-]{0,63}|\[(?:\*|\d{1,6})\]|\.\*){0,15}$/,
      'A path is names joined by dots, with [*] or [n] for array items (e.g. result.content[*].text)',
    ),
  /** Only in calls of this tool; absent: every message. */
  tool: z.string().min(1).max(200).optional(),
});
export type RedactionPath = z.infer<typeof RedactionPath>;

export const RedactionSettingsBody = z
  .object({
    rules: z.array(z.object({ id: z.string(), enabled: z.boolean(), hash: z.boolean() })).max(200),
    customPatterns: z.array(CustomPattern).max(50),
    paths: z.array(RedactionPath).max(100),
    /** Exact values never redacted (a test key everyone knows, a public address). */
    allowlist: z.array(z.string().min(1).max(1000)).max(200),
  })
  .strict();
export type RedactionSettingsBody = z.input<typeof RedactionSettingsBody>;
export type RedactionSettingsInput = z.output<typeof RedactionSettingsBody>;

export const RedactionSettingsDto = z.object({
  rules: z.array(RedactionRuleDto),
  customPatterns: z.array(CustomPattern),
  paths: z.array(RedactionPath),
  allowlist: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type RedactionSettingsDto = z.infer<typeof RedactionSettingsDto>;

/** POST …/redaction/test: a sample message (or any JSON), redacted as the recorder would store it. */
export const RedactionTestBody = z.object({
  sample: z.string().max(256 * 1024, 'A sample is at most 256 KiB'),
  /** The settings to try (unsaved edits); absent: the workspace's saved settings. */
  settings: RedactionSettingsBody.optional(),
  /** The tool the sample belongs to, for paths scoped to one tool. */
  tool: z.string().max(200).optional(),
});
export type RedactionTestBody = z.input<typeof RedactionTestBody>;

export const RedactionTestResult = z.object({
  /** What would be stored. */
  stored: z.string(),
  /** Rule ids that matched, with how many values each replaced. */
  matches: z.array(z.object({ rule: z.string(), count: z.number() })),
});
export type RedactionTestResult = z.infer<typeof RedactionTestResult>;

export const RedactionText = {
  onlyManagersEdit: 'Only workspace owners and admins can change redaction rules',
  unknownRule: (id: string) => `Unknown redaction rule: ${id}`,
  duplicateCustomId: (id: string) => `Two custom patterns are named ${id}`,
  customIdTaken: (id: string) => `${id} is the name of a built-in rule: choose another name for the custom pattern`,
  patternRefused: (id: string, why: string) =>
    `Pattern ${id} is refused: ${why}. Patterns use RE2 syntax (no backreferences or lookaround), so matching stays linear-time`,
  patternMatchesEmpty: (id: string) => `Pattern ${id} matches the empty text: it must match at least one character`,
} as const;
