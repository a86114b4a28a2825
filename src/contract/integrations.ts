import { z } from 'zod';
import { httpUrlField } from './httpUrl';
import { NOTIFICATION_SEVERITIES, NOTIFICATION_TYPES } from './notifications';

// SPEC §3/§7 Integrations: where a workspace's notifications also go (Slack, a signed webhook,
// PagerDuty, email). Secrets (Slack webhook URLs, signing secrets, routing keys) are write-only:
// answers carry them masked (docs/integrations.md).
export const INTEGRATION_KINDS = ['slack', 'webhook', 'pagerduty', 'email'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** The Events API v2 endpoint PagerDuty documents; a config may name another (EU service region). */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
/** How a masked secret reads in answers: a PUT that sends it back keeps the stored value. */
export const MASK = '••••';
export const ACTIVITIES_DEFAULT_LIMIT = 50;
export const ACTIVITIES_MAX_LIMIT = 500;

const httpUrl = httpUrlField({ message: 'Expected an http or https URL' });

/** Standard Webhooks secrets: `whsec_` + base64 of 24 to 64 random bytes. */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export const SlackConfig = z.object({ webhookUrl: httpUrl });
export const WebhookConfig = z.object({
  url: httpUrl,
  secret: z.string().regex(WEBHOOK_SECRET, "Expected a Standard Webhooks secret ('whsec_' + base64)").optional(),
});
export const PagerDutyConfig = z.object({
  routingKey: z.string().trim().min(1, 'Required').max(128, 'Must be at most 128 characters'),
  eventsUrl: httpUrl.optional(),
});
export const EmailConfig = z.object({
  to: z
    .array(z.email({ error: 'Expected an email address' }).max(254))
    .min(1, 'Name at least one address')
    .max(20, 'At most 20 addresses'),
});

export const IntegrationRules = z.object({
  /** Notification types that go out; empty means every type. */
  types: z.array(z.enum(NOTIFICATION_TYPES)).max(NOTIFICATION_TYPES.length).default([]),
  minSeverity: z.enum(NOTIFICATION_SEVERITIES).default('warning'),
  /** Only notifications about these servers (by metadata.serverId); absent means all. */
  serverIds: z
    .array(z.uuid({ error: 'Expected a server id' }))
    .max(200)
    .optional(),
});
export type IntegrationRules = z.infer<typeof IntegrationRules>;

const name = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(100, 'Must be at most 100 characters')
  .refine((value) => !hasControlCharacter(value), 'Must not contain control characters');

/** A create body: the config's shape follows its kind. */
export const CreateIntegrationBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('slack'),
    name,
    config: SlackConfig,
    rules: IntegrationRules.optional(),
    enabled: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('webhook'),
    name,
    config: WebhookConfig,
    rules: IntegrationRules.optional(),
    enabled: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('pagerduty'),
    name,
    config: PagerDutyConfig,
    rules: IntegrationRules.optional(),
    enabled: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('email'),
    name,
    config: EmailConfig,
    rules: IntegrationRules.optional(),
    enabled: z.boolean().optional(),
  }),
]);
export type CreateIntegrationBody = z.infer<typeof CreateIntegrationBody>;

/**
 * An update: any field; `config` is checked against the integration's kind by the route (a masked
 * secret sent back as it was shown keeps the stored one). The kind never changes.
 */
export const UpdateIntegrationBody = z.object({
  name: name.optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  rules: IntegrationRules.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateIntegrationBody = z.infer<typeof UpdateIntegrationBody>;

export const IntegrationDto = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(INTEGRATION_KINDS),
  /** Secrets masked (`••••` + their last 4 characters). */
  config: z.record(z.string(), z.unknown()),
  rules: IntegrationRules,
  enabled: z.boolean(),
  /** Why the integration was turned off by Toolscope (a 410, failures in a row), else null. */
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastDeliveryAt: z.string().nullable(),
  lastDeliveryStatus: z.enum(['delivered', 'failed']).nullable(),
});
export type IntegrationDto = z.infer<typeof IntegrationDto>;

/** The create answer: the only time a generated webhook signing secret is shown whole. */
export const CreatedIntegrationDto = IntegrationDto.extend({ revealedSecret: z.string().optional() });
export type CreatedIntegrationDto = z.infer<typeof CreatedIntegrationDto>;

export const IntegrationListResult = z.object({ integrations: z.array(IntegrationDto) });

/** POST …/{integrationId}/test {config}: the config to try (saved one when absent; masked secrets keep the saved ones). */
export const TestIntegrationBody = z.object({ config: z.record(z.string(), z.unknown()).optional() }).default({});
/** POST …/integrations/test: an unsaved integration's kind and config, to try before saving. */
export const TestUnsavedIntegrationBody = z.object({
  kind: z.enum(INTEGRATION_KINDS),
  config: z.record(z.string(), z.unknown()),
});

export const DeliveryOutcome = z.object({
  ok: z.boolean(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number(),
  error: z.string().nullable(),
});
export type DeliveryOutcome = z.infer<typeof DeliveryOutcome>;

export const ACTIVITY_STATUSES = ['delivered', 'retrying', 'failed', 'skipped'] as const;
export const IntegrationActivityDto = z.object({
  id: z.string(),
  deliveryId: z.string().nullable(),
  createdAt: z.string(),
  /** The notification type, or 'test'. */
  event: z.string(),
  status: z.enum(ACTIVITY_STATUSES),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().nullable(),
  error: z.string().nullable(),
  attempt: z.number().int(),
  summary: z.string(),
});
export type IntegrationActivityDto = z.infer<typeof IntegrationActivityDto>;
export const IntegrationActivityList = z.object({ activities: z.array(IntegrationActivityDto) });

export const ActivitiesQuery = z.object({
  limit: z.coerce
    .number({ error: 'Expected a number' })
    .int('Expected an integer')
    .min(1, 'Must be at least 1')
    .max(ACTIVITIES_MAX_LIMIT, `Must be at most ${ACTIVITIES_MAX_LIMIT}`)
    .default(ACTIVITIES_DEFAULT_LIMIT),
});

/**
 * The JSON body a generic webhook receives (signed per Standard Webhooks: webhook-id,
 * webhook-timestamp, webhook-signature). `type` is `notification.raised` or `integration.test`.
 */
export interface WebhookEventBody {
  type: 'notification.raised' | 'integration.test';
  timestamp: string;
  data: {
    workspaceId: string;
    notification: {
      type: string;
      severity: string;
      title: string;
      message: string;
      /** Absolute link to the item in Toolscope, when there is one. */
      url: string | null;
      metadata: Record<string, unknown>;
    };
  };
}

/** Whether the text holds a C0 control character (U+0000–U+001F). */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) if (value.charCodeAt(i) < 0x20) return true;
  return false;
}
