import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  EmailConfig,
  PagerDutyConfig,
  SlackConfig,
  WebhookConfig,
  type IntegrationKind,
} from '../../../contract/integrations';
import { badRequest, notFound } from '../../http/errors';
import { OutboundBlockedError } from '../../net/outboundClient';
import type { IntegrationEvent } from '../../integrations/payloads';
import { findIntegration, type IntegrationRow } from '../../data/integrations/store';

// What the integration routes hold a request to: a config valid for its kind (a 400 names the
// field), URLs the SSRF policy lets out, an integration of the workspace (else 404) — and the
// sample event a test sends.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CONFIG_SCHEMAS: Record<IntegrationKind, z.ZodType<Record<string, unknown>>> = {
  slack: SlackConfig,
  webhook: WebhookConfig,
  pagerduty: PagerDutyConfig,
  email: EmailConfig,
};
const URL_FIELDS: Record<IntegrationKind, readonly string[]> = {
  slack: ['webhookUrl'],
  webhook: ['url'],
  pagerduty: ['eventsUrl'],
  email: [],
};

/** Validates a full config for its kind; a 400 names the field. */
export function parseConfig(kind: IntegrationKind, config: Record<string, unknown>): Record<string, unknown> {
  const parsed = CONFIG_SCHEMAS[kind].safeParse(config);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = `config.${issue.path.join('.') || 'config'}`;
  throw badRequest(`${field}: ${issue.message}`, { [field]: issue.message });
}

/** The SSRF policy, at save and test time (and again at connect time, by the outbound client). */
export async function assertUrlsAllowed(
  app: FastifyInstance,
  kind: IntegrationKind,
  config: Record<string, unknown>,
): Promise<void> {
  for (const field of URL_FIELDS[kind]) {
    const value = config[field];
    if (typeof value !== 'string' || !value) continue;
    try {
      await app.outbound.assertUrlAllowed(value);
    } catch (error) {
      if (error instanceof OutboundBlockedError)
        throw badRequest(`config.${field}: ${error.message}`, { [`config.${field}`]: error.message });
      throw error;
    }
  }
}

/** The workspace's integration, or a 404 (an id that is not a UUID included). */
export async function loadIntegration(
  app: FastifyInstance,
  workspaceId: string,
  integrationId: string,
): Promise<IntegrationRow> {
  const row = UUID.test(integrationId) ? await findIntegration(app.db, workspaceId, integrationId) : undefined;
  if (!row) throw notFound('Integration not found');
  return row;
}

/** The sample event a test delivers. */
export function testEvent(workspaceId: string, name: string): IntegrationEvent {
  return {
    kind: 'integration.test',
    workspaceId,
    type: 'system_announcement',
    severity: 'info',
    title: 'Toolscope test event',
    message: `A test from Toolscope: the integration "${name}" can deliver notifications.`,
    actionUrl: '/integrations',
    metadata: { test: true },
    raisedAt: new Date().toISOString(),
  };
}
