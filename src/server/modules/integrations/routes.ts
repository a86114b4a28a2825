import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateIntegrationBody,
  CreatedIntegrationDto,
  DeliveryOutcome,
  IntegrationDto,
  IntegrationListResult,
  IntegrationRules,
  TestIntegrationBody,
  TestUnsavedIntegrationBody,
  UpdateIntegrationBody,
  type IntegrationKind,
} from '../../../contract/integrations';
import { notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { assertUrlsAllowed, loadIntegration, parseConfig, testEvent, UUID } from './integrationRules';
import { auditRequest } from '../audit/store';
import { attemptDelivery } from '../../integrations/sender';
import {
  generateWebhookSecret,
  openSecrets,
  sealSecrets,
  splitConfig,
  withStoredSecrets,
} from '../../data/integrations/secrets';
import {
  deleteIntegration,
  insertActivity,
  insertIntegration,
  listIntegrations,
  toIntegrationDto,
  updateIntegration,
} from '../../data/integrations/store';

// SPEC §7 Integrations, under /api/v1/workspaces/:workspaceId (membership guard first). Members
// see integrations (secrets masked); owners and admins change, test and resend (docs/integrations.md).
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const OneIntegration = z.object({ workspaceId: z.string(), integrationId: z.string() });
export const integrationRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['integrations'];
  const secret = app.config.secret;
  const sendTest = (kind: IntegrationKind, config: Record<string, unknown>, workspaceId: string, name: string) =>
    attemptDelivery(
      app.integrationDispatcher.senderDeps,
      { kind, config },
      testEvent(workspaceId, name),
      `test_${Date.now()}`,
    );

  app.get(
    '/integrations',
    {
      schema: {
        tags,
        summary: "The workspace's integrations (secrets masked)",
        params: WorkspaceOnly,
        response: { 200: IntegrationListResult },
      },
    },
    async (request) => ({
      integrations: (await listIntegrations(app.db, request.params.workspaceId)).map((row) =>
        toIntegrationDto(row, secret),
      ),
    }),
  );

  app.post(
    '/integrations',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Add an integration',
        params: WorkspaceOnly,
        body: CreateIntegrationBody,
        response: { 201: CreatedIntegrationDto, ...errorResponses(400, 403) },
      },
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
      await auditRequest(app.db, request, {
        workspaceId: request.params.workspaceId,
        action: 'integration.created',
        target: body.name,
        details: { integrationId: row.id, kind: body.kind },
      });
      reply.status(201);
      return { ...toIntegrationDto(row, secret), ...(revealedSecret ? { revealedSecret } : {}) };
    },
  );

  app.post(
    '/integrations/test',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Send a sample event with an unsaved config',
        params: WorkspaceOnly,
        body: TestUnsavedIntegrationBody,
        response: { 200: DeliveryOutcome, ...errorResponses(400, 403) },
      },
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
    {
      schema: {
        tags,
        summary: 'One integration (secrets masked)',
        params: OneIntegration,
        response: { 200: IntegrationDto, ...errorResponses(404) },
      },
    },
    async (request) =>
      toIntegrationDto(await loadIntegration(app, request.params.workspaceId, request.params.integrationId), secret),
  );

  app.put(
    '/integrations/:integrationId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Change an integration',
        params: OneIntegration,
        body: UpdateIntegrationBody,
        response: { 200: IntegrationDto, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId, integrationId } = request.params;
      const row = await loadIntegration(app, workspaceId, integrationId);
      const stored = openSecrets(row.secrets, secret);
      let plain = row.config;
      let sealed = row.secrets;
      if (request.body.config) {
        const config = parseConfig(row.kind, withStoredSecrets(row.kind, request.body.config, stored, row.config));
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
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'integration.updated',
        target: request.body.name ?? row.name,
        details: { integrationId, kind: row.kind, changed: Object.keys(request.body).sort() },
      });
      return toIntegrationDto(await loadIntegration(app, workspaceId, integrationId), secret);
    },
  );

  app.delete(
    '/integrations/:integrationId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Remove an integration and its activity',
        params: OneIntegration,
        response: { 204: z.null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const { workspaceId, integrationId } = request.params;
      const existing = UUID.test(integrationId) ? await loadIntegration(app, workspaceId, integrationId) : null;
      if (!existing || !(await deleteIntegration(app.db, workspaceId, integrationId)))
        throw notFound('Integration not found');
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'integration.deleted',
        target: existing.name,
        details: { integrationId, kind: existing.kind },
      });
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
      const config = parseConfig(
        row.kind,
        withStoredSecrets(row.kind, request.body.config ?? { ...row.config }, stored, row.config),
      );
      await assertUrlsAllowed(app, row.kind, config);
      const event = testEvent(workspaceId, row.name);
      const outcome = await attemptDelivery(
        app.integrationDispatcher.senderDeps,
        { kind: row.kind, config },
        event,
        `test_${Date.now()}`,
      );
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

  return Promise.resolve();
};
