import { z } from 'zod';

// The risk check of tool definitions (docs/security.md "Tool-definition risk check"): what each
// finding says. A high finding that a change *introduces* is held back from agents (the previous
// version stays pinned); a low finding is shown but never holds anything back.
export const RISK_SEVERITIES = ['high', 'low'] as const;
export type RiskSeverity = (typeof RISK_SEVERITIES)[number];

export const RISK_RULE_IDS = [
  'hidden_unicode_tags',
  'invisible_characters',
  'bidi_override',
  'ignore_instructions',
  'secrecy',
  'before_using',
  'credential_path',
  'exfiltration_url',
  'shadowing',
  'secret_parameter',
] as const;
export type RiskRuleId = (typeof RISK_RULE_IDS)[number];

export const RiskFinding = z.object({
  ruleId: z.enum(RISK_RULE_IDS),
  /** The rule's name as people read it ("Hidden Unicode tag characters"). */
  title: z.string(),
  severity: z.enum(RISK_SEVERITIES),
  /** JSON pointer of the text in the definition (/description, /inputSchema/properties/notes/description). */
  path: z.string(),
  /** The exact text that triggered the rule (invisible characters written as U+XXXX). */
  match: z.string(),
  /** The trigger with some of the text around it, written the same way. */
  excerpt: z.string(),
});
export type RiskFinding = z.infer<typeof RiskFinding>;
