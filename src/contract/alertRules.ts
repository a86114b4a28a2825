import { z } from 'zod';
import { uuid } from './queryFields';
import { API } from './routes';

// Alert rules (issue 36, docs/notifications.md "Alert rules"): a workspace's own thresholds on
// its agents' tool traffic, evaluated from the analytics rollups every minute, with a
// for-duration both ways (hysteresis), quiet hours, and one "firing" and one "resolved"
// notification (type alert_rule) per episode.
export const ALERT_METRICS = [
  'calls',
  'errors',
  'error_rate',
  'latency_p50',
  'latency_p95',
  'latency_p99',
  'tokens',
  'cost',
  'sessions',
  'new_tool_client',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

/** How each metric reads (units in the message and on the screen). */
export const ALERT_METRIC_LABELS: Record<AlertMetric, string> = {
  calls: 'Calls',
  errors: 'Errors',
  error_rate: 'Error rate (%)',
  latency_p50: 'Latency p50 (ms)',
  latency_p95: 'Latency p95 (ms)',
  latency_p99: 'Latency p99 (ms)',
  tokens: 'Tokens',
  cost: 'Cost (USD)',
  sessions: 'Sessions',
  new_tool_client: 'New client × tool pairs (a client calling a tool it never called before)',
};

export const ALERT_CONDITIONS = ['above', 'below'] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];
export const ALERT_SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export const ALERT_RULE_STATES = ['ok', 'pending', 'firing', 'resolving'] as const;
export type AlertRuleState = (typeof ALERT_RULE_STATES)[number];

export const ALERT_WINDOW_MINUTES_MAX = 1440;
export const ALERT_RULES_MAX = 100;
/** The preview replays the rule over this many days of rollups. */
export const ALERT_PREVIEW_DAYS = 7;

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected a time as HH:MM (24 h)');
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const QuietHours = z.object({
  /** From this time … */
  start: time,
  /** … to this one (wrapping past midnight when earlier than start), in `timeZone`. */
  end: time,
  timeZone: z.string().max(64).refine(isTimeZone, 'Unknown time zone'),
});
export type QuietHours = z.infer<typeof QuietHours>;

/** What the rule looks at; nothing set = the whole workspace. */
export const AlertScope = z.object({
  serverId: uuid.optional(),
  tool: z.string().trim().min(1).max(200).optional(),
  client: z.string().trim().min(1).max(200).optional(),
  /** A platform key's id, or 'none' (calls without a key). */
  keyId: z.union([uuid, z.literal('none')]).optional(),
});
export type AlertScope = z.infer<typeof AlertScope>;

/** The fields as sent, without defaults (a PATCH must not reset what it leaves out). */
const AlertRuleShape = z.object({
  name: z.string().trim().min(1, 'Name is required').max(120, 'At most 120 characters'),
  metric: z.enum(ALERT_METRICS),
  scope: AlertScope,
  condition: z.enum(ALERT_CONDITIONS),
  threshold: z.number({ error: 'Expected a number' }).min(0, 'Must be 0 or more').max(1e12),
  windowMinutes: z
    .number()
    .int('Expected whole minutes')
    .min(1, 'Must be at least 1')
    .max(ALERT_WINDOW_MINUTES_MAX, `Must be at most ${ALERT_WINDOW_MINUTES_MAX} (24 h)`),
  /** How long the condition must hold before it fires — and be clear before it resolves. */
  forMinutes: z.number().int('Expected whole minutes').min(0, 'Must be 0 or more').max(1440, 'Must be at most 1440'),
  severity: z.enum(ALERT_SEVERITIES),
  quietHours: QuietHours.nullable(),
  /** Also send to the workspace's integrations (whose own rules still apply). */
  notifyIntegrations: z.boolean(),
  enabled: z.boolean(),
});

export const AlertRuleFields = AlertRuleShape.extend({
  scope: AlertScope.default({}),
  quietHours: QuietHours.nullable().default(null),
  notifyIntegrations: z.boolean().default(true),
  enabled: z.boolean().default(true),
});

export const CreateAlertRuleBody = AlertRuleFields.strict();
export type CreateAlertRuleBody = z.input<typeof CreateAlertRuleBody>;
export const UpdateAlertRuleBody = AlertRuleShape.partial().strict();
export type UpdateAlertRuleBody = z.input<typeof UpdateAlertRuleBody>;

export const AlertRuleDto = AlertRuleFields.extend({
  id: z.string(),
  workspaceId: z.string(),
  state: z.enum(ALERT_RULE_STATES),
  /** When the current state began (null before the first evaluation). */
  stateSince: z.string().nullable(),
  lastValue: z.number().nullable(),
  lastEvaluatedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertRuleDto = z.infer<typeof AlertRuleDto>;
export const AlertRuleListResult = z.object({ rules: z.array(AlertRuleDto) });
export type AlertRuleListResult = z.infer<typeof AlertRuleListResult>;

export const AlertFiringDto = z.object({
  id: z.string(),
  ruleId: z.string(),
  firedAt: z.string(),
  /** null while it is still firing. */
  resolvedAt: z.string().nullable(),
  /** The metric's value when it fired. */
  value: z.number().nullable(),
});
export type AlertFiringDto = z.infer<typeof AlertFiringDto>;
export const AlertFiringListResult = z.object({ firings: z.array(AlertFiringDto) });
export type AlertFiringListResult = z.infer<typeof AlertFiringListResult>;

/** What replaying a rule over the last 7 days of rollups gives. */
export const AlertPreviewResult = z.object({
  from: z.string(),
  to: z.string(),
  /** Evaluations replayed (one per evaluation step). */
  evaluations: z.number().int(),
  /** How many times it would have fired. */
  firings: z.number().int(),
  episodes: z.array(z.object({ firedAt: z.string(), resolvedAt: z.string().nullable() })),
});
export type AlertPreviewResult = z.infer<typeof AlertPreviewResult>;

/** The API paths (docs/api.md "Alert rules"). */
export const AlertRulePaths = {
  list: (workspaceId: string) => `${API}/workspaces/${workspaceId}/alert-rules`,
  one: (workspaceId: string, ruleId: string) => `${API}/workspaces/${workspaceId}/alert-rules/${ruleId}`,
  firings: (workspaceId: string, ruleId: string) => `${API}/workspaces/${workspaceId}/alert-rules/${ruleId}/firings`,
  preview: (workspaceId: string) => `${API}/workspaces/${workspaceId}/alert-rules/preview`,
} as const;
