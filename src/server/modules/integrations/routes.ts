import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActivitiesQuery,
  CreateIntegrationBody,
  CreatedIntegrationDto,
  DeliveryOutcome,
  EmailConfig,
  IntegrationActivityList,
  IntegrationDto,
  IntegrationListResult,
  IntegrationRules,
  PagerDutyConfig,
  SlackConfig,
  TestIntegrationBody,
  TestUnsavedIntegrationBody,
  UpdateIntegrationBody,
  WebhookConfig,
  type IntegrationKind,
} from '../../../contract/integrations';
import { badRequest, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { OutboundBlockedError } from '../../net/outboundClient';
import { requeueDelivery } from '../../integrations/deliveryQueue';
import type { IntegrationEvent } from '../../integrations/payloads';
import { attemptDelivery } from '../../integrations/sender';
import { generateWebhookSecret, openSecrets, sealSecrets, splitConfig, withStoredSecrets } from './secrets';
import {
  deleteIntegration,
  findIntegration,
  insertActivity,
  insertIntegration,
  listActivities,
  listIntegrations,
  toIntegrationDto,
  updateIntegration,
  type IntegrationRow,
} from './store';

// SPEC §7 Integrations, under /api/v1/workspaces/:workspaceId (membership guard first). Members
// see integrations (secrets masked); owners and admins change, test and resend (docs/integrations.md).
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const OneIntegration = z.object({ workspaceId: z.string(), integrationId: z.string() });
const OneActivity = OneIntegration.extend({ activityId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CONFIG_SCHEMAS: Record<IntegrationKind, z.ZodType<Record<string, unknown>>> = {
  slack: SlackConfig,
  webhook: WebhookConfig,
  pagerduty: PagerDutyConfig,
  email: EmailConfig,
};
const URL_FIELDS: Record<IntegrationKind, readonly string[]> = { slack: ['webhookUrl'], webhook: ['url'], pagerduty: ['eventsUrl'], email: [] };

/** Validates a full config for its kind; a 400 names the field. */
function parseConfig(kind: IntegrationKind, config: Record<string, unknown>): Record<string, unknown> {
  const parsed = CONFIG_SCHEMAS[kind].safeParse(config);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = `config.${issue.path.join('.') || 'config'}`;
  throw badRequest(`${field}: ${issue.message}`, { [field]: issue.message });
}

/** The SSRF policy, at save and test time (and again at connect time, by the outbound client). */
async function assertUrlsAllowed(app: FastifyInstance, kind: IntegrationKind, config: Record<string, unknown>): Promise<void> {
  for (const field of URL_FIELDS[kind]) {
    const value = config[field];
    if (typeof value !== 'string' || !value) continue;
    try {
      await app.outbound.assertUrlAllowed(value);
    } catch (error) {
      if (error instanceof OutboundBlockedError) throw badRequest(`config.${field}: ${error.message}`, { [`config.${field}`]: error.message });
      throw error;
    }
  }
}

async function loadIntegration(app: FastifyInstance, workspaceId: string, integrationId: string): Promise<IntegrationRow> {
  const row = UUID.test(integrationId) ? await findIntegration(app.db, workspaceId, integrationId) : undefined;
  if (!row) throw notFound('Integration not found');
  return row;
}

function testEvent(workspaceId: string, name: string): IntegrationEvent {
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

export const integrationRoutes: FastifyPluginAsync = async (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['integrations'];
  const secret = app.config.secret;
  const sendTest = (kind: IntegrationKind, config: Record<string, unknown>, workspaceId: string, name: string) =>
    attemptDelivery(app.integrationDispatcher.senderDeps, { kind, config }, testEvent(workspaceId, name), `test_${Date.now()}`);

  app.get(
    '/integrations',
    { schema: { tags, summary: "The workspace's integrations (secrets masked)", params: WorkspaceOnly, response: { 200: IntegrationListResult } } },
    async (request) => ({ integrations: (await listIntegrations(app.db, request.params.workspaceId)).map((row) => toIntegrationDto(row, secret)) }),
  );

  app.post(
    '/integrations',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Add an integration', params: WorkspaceOnly, body: CreateIntegrationBody, response: { 201: CreatedIntegrationDto, ...errorResponses(400, 403) } },
    },
    async (request, reply) => {
      const body = request.body;
      const config: Record<string, unknown> = { ...body.config };
      let revealedSecret: string | undefined;
      if (body.kind === 'webhook' && !config.secret) config.secret = revealedSecret = generateWebhookSecret();
      await assertUrlsAllowed(app, body.kind, config);
      const { plain, secrets } = splitConfig(body.kind, config);
      const row = await insertIntegration(app.db, {
        workspaceId: request.params.workspaceId,
        name: body.name,
        kind: body.kind,
        config: plain,
        secrets: sealSecrets(secrets, secret),
        rules: body.rules ?? IntegrationRules.parse({}),
        enabled: body.enabled ?? true,
      });
      reply.status(201);
      return { ...toIntegrationDto(row, secret), ...(revealedSecret ? { revealedSecret } : {}) };
    },
  );

  app.post(
    '/integrations/test',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Send a sample event with an unsaved config', params: WorkspaceOnly, body: TestUnsavedIntegrationBody, response: { 200: DeliveryOutcome, ...errorResponses(400, 403) } },
    },
    async (request) => {
      const { kind } = request.body;
      const config = parseConfig(kind, request.body.config);
      await assertUrlsAllowed(app, kind, config);
      const outcome = await sendTest(kind, config, request.params.workspaceId, 'unsaved');
      return { ok: outcome.ok, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs, error: outcome.error };
    },
  );

  app.get(
    '/integrations/:integrationId',
    { schema: { tags, summary: 'One integration (secrets masked)', params: OneIntegration, response: { 200: IntegrationDto, ...errorResponses(404) } } },
    async (request) => toIntegrationDto(await loadIntegration(app, request.params.workspaceId, request.params.integrationId), secret),
  );

  app.put(
    '/integrations/:integrationId',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Change an integration', params: OneIntegration, body: UpdateIntegrationBody, response: { 200: IntegrationDto, ...errorResponses(400, 403, 404) } },
    },
    async (request) => {
      const { workspaceId, integrationId } = request.params;
      const row = await loadIntegration(app, workspaceId, integrationId);
      const stored = openSecrets(row.secrets, secret);
      let plain = row.config;
      let sealed = row.secrets;
      if (request.body.config) {
        const config = parseConfig(row.kind, withStoredSecrets(row.kind, request.body.config, stored));
        await assertUrlsAllowed(app, row.kind, config);
        const split = splitConfig(row.kind, config);
        plain = split.plain;
        sealed = sealSecrets(split.secrets, secret);
      }
      await updateIntegration(app.db, workspaceId, integrationId, {
        name: request.body.name ?? row.name,
        config: plain,
        secrets: sealed,
        rules: request.body.rules ?? row.rules,
        enabled: request.body.enabled ?? row.enabled,
      });
      return toIntegrationDto(await loadIntegration(app, workspaceId, integrationId), secret);
    },
  );

  app.delete(
    '/integrations/:integrationId',
    { config: { minRole: 'admin' }, schema: { tags, summary: 'Remove an integration and its activity', params: OneIntegration, response: { 204: z.null(), ...errorResponses(403, 404) } } },
    async (request, reply) => {
      const { workspaceId, integrationId } = request.params;
      if (!UUID.test(integrationId) || !(await deleteIntegration(app.db, workspaceId, integrationId))) throw notFound('Integration not found');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/integrations/:integrationId/test',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Send a sample event (with the given config, else the saved one) and answer with the outcome',
        params: OneIntegration,
        body: TestIntegrationBody,
        response: { 200: DeliveryOutcome, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId, integrationId } = request.params;
      const row = await loadIntegration(app, workspaceId, integrationId);
      const stored = openSecrets(row.secrets, secret);
      const config = parseConfig(row.kind, withStoredSecrets(row.kind, request.body?.config ?? { ...row.config }, stored));
      await assertUrlsAllowed(app, row.kind, config);
      const event = testEvent(workspaceId, row.name);
      const outcome = await attemptDelivery(app.integrationDispatcher.senderDeps, { kind: row.kind, config }, event, `test_${Date.now()}`);
      await insertActivity(app.db, {
        integrationId,
        deliveryId: null,
        event: 'test',
        status: outcome.skipped ? 'skipped' : outcome.ok ? 'delivered' : 'failed',
        statusCode: outcome.statusCode,
        latencyMs: outcome.latencyMs,
        error: outcome.error,
        attempt: 1,
        summary: `test · ${event.message}`,
      });
      return { ok: outcome.ok, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs, error: outcome.error };
    },
  );

  app.get(
    '/integrations/:integrationId/activities',
    {
      schema: { tags, summary: 'Delivery attempts, newest first (kept 30 days)', params: OneIntegration, querystring: ActivitiesQuery, response: { 200: IntegrationActivityList, ...errorResponses(400, 404) } },
    },
    async (request) => {
      const row = await loadIntegration(app, request.params.workspaceId, request.params.integrationId);
      return { activities: await listActivities(app.db, row.id, request.query.limit) };
    },
  );

  app.post(
    '/integrations/:integrationId/activities/:activityId/resend',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: "Send a past delivery's event again", params: OneActivity, response: { 202: z.object({ deliveryId: z.string() }), ...errorResponses(403, 404, 409) } },
    },
    async (request, reply) => {
      const { workspaceId, integrationId, activityId } = request.params;
      const row = await loadIntegration(app, workspaceId, integrationId);
      if (!UUID.test(activityId)) throw notFound('Activity not found');
      const [activity] = await app.db.query<{ delivery_id: string | null }>('select delivery_id from integration_activities where id = $1 and integration_id = $2', [activityId, row.id]);
      if (!activity) throw notFound('Activity not found');
      if (!activity.delivery_id) throw badRequest('A test has no delivery to send again; send a new test instead');
      const deliveryId = await requeueDelivery(app.db, row.id, activity.delivery_id);
      if (!deliveryId) throw notFound('Activity not found');
      app.integrationDispatcher.kick();
      return reply.status(202).send({ deliveryId });
    },
  );
};
