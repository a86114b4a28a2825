import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALERT_RULES_MAX,
  AlertFiringListResult,
  AlertPreviewResult,
  AlertRuleDto,
  AlertRuleListResult,
  CreateAlertRuleBody,
  UpdateAlertRuleBody,
} from '../../../contract/alertRules';
import { conflict, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { previewAlertRule } from './preview';
import {
  countAlertRules,
  deleteAlertRule,
  findAlertRule,
  insertAlertRule,
  listAlertRules,
  listFirings,
  toAlertRuleDto,
  updateAlertRule,
  type AlertRuleFields,
} from './store';

// Alert rules under /api/v1/workspaces/:workspaceId (membership guard first; docs/notifications.md
// "Alert rules"). Members read rules, their firings and previews; owners and admins change them.
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const OneRule = z.object({ workspaceId: z.string(), ruleId: z.uuid({ error: 'Expected a rule id' }) });
const FiringsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

export const alertRuleRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['alert-rules'];
  const found = async (workspaceId: string, ruleId: string) => {
    const row = await findAlertRule(app.db, workspaceId, ruleId);
    if (!row) throw notFound('Alert rule not found');
    return row;
  };

  app.get(
    '/alert-rules',
    {
      schema: {
        tags,
        summary: "The workspace's alert rules",
        params: WorkspaceOnly,
        response: { 200: AlertRuleListResult },
      },
    },
    async (request) => ({ rules: (await listAlertRules(app.db, request.params.workspaceId)).map(toAlertRuleDto) }),
  );

  app.post(
    '/alert-rules',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Add an alert rule',
        params: WorkspaceOnly,
        body: CreateAlertRuleBody,
        response: { 201: AlertRuleDto, ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      if ((await countAlertRules(app.db, workspaceId)) >= ALERT_RULES_MAX)
        throw conflict(`A workspace has at most ${ALERT_RULES_MAX} alert rules`);
      const row = await insertAlertRule(app.db, workspaceId, request.body);
      reply.status(201);
      return toAlertRuleDto(row);
    },
  );

  app.post(
    '/alert-rules/preview',
    {
      // A read dressed as a POST (the rule travels in the body): any member may preview.
      config: { minRole: 'member' },
      schema: {
        tags,
        summary: 'How often a rule would have fired over the last 7 days (a replay of the rollups)',
        params: WorkspaceOnly,
        body: CreateAlertRuleBody,
        response: { 200: AlertPreviewResult, ...errorResponses(400) },
      },
    },
    async (request) =>
      previewAlertRule(app.db, request.params.workspaceId, request.body as AlertRuleFields, Date.now()),
  );

  app.get(
    '/alert-rules/:ruleId',
    {
      schema: {
        tags,
        summary: 'One alert rule',
        params: OneRule,
        response: { 200: AlertRuleDto, ...errorResponses(404) },
      },
    },
    async (request) => toAlertRuleDto(await found(request.params.workspaceId, request.params.ruleId)),
  );

  app.patch(
    '/alert-rules/:ruleId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Change an alert rule (a change to what it measures starts it over)',
        params: OneRule,
        body: UpdateAlertRuleBody,
        response: { 200: AlertRuleDto, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId, ruleId } = request.params;
      const row = await updateAlertRule(app.db, workspaceId, ruleId, request.body);
      if (!row) throw notFound('Alert rule not found');
      return toAlertRuleDto(row);
    },
  );

  app.delete(
    '/alert-rules/:ruleId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Delete an alert rule and its history',
        params: OneRule,
        response: { 204: z.null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const { workspaceId, ruleId } = request.params;
      await found(workspaceId, ruleId);
      await deleteAlertRule(app.db, workspaceId, ruleId);
      reply.status(204);
      return null;
    },
  );

  app.get(
    '/alert-rules/:ruleId/firings',
    {
      schema: {
        tags,
        summary: "A rule's firings, newest first",
        params: OneRule,
        querystring: FiringsQuery,
        response: { 200: AlertFiringListResult, ...errorResponses(404) },
      },
    },
    async (request) => {
      await found(request.params.workspaceId, request.params.ruleId);
      return { firings: await listFirings(app.db, request.params.ruleId, request.query.limit) };
    },
  );
  return Promise.resolve();
};
