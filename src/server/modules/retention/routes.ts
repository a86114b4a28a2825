import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { planById } from '../../../contract/plans';
import { RetentionText, UpdateRetentionBody, WorkspaceRetention } from '../../../contract/retention';
import { WorkspaceParams } from '../../../contract/workspaces';
import {
  chooseRawRetention,
  describeRetention,
  effectiveRawDays,
  readRetentionPolicy,
} from '../../data/retention/retentionPolicy';
import { badRequest, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';

// /api/v1/workspaces/:workspaceId/retention (docs/operations.md "Retention"): every member sees
// how long raw data and rollups are kept; owners and admins may keep raw data shorter than the
// plan gives (never longer than the plan or the operator's cap). The expiry job applies a
// change at its next run.

const tags = ['workspaces'];

export const retentionRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const cap = () => app.config.rawRetentionMaxDays;

  app.get(
    '/retention',
    {
      schema: {
        tags,
        summary: 'How long raw data (sessions, messages, calls, payloads) and rollups are kept',
        params: WorkspaceParams,
        response: { 200: WorkspaceRetention, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const policy = await readRetentionPolicy(app.db, request.params.workspaceId, cap());
      if (!policy) throw notFound('Workspace not found');
      return describeRetention(policy, Date.now());
    },
  );

  app.put(
    '/retention',
    {
      config: { minRole: 'admin', roleRefusal: RetentionText.onlyManagersChange },
      schema: {
        tags,
        summary: 'Keep raw data fewer days than the plan gives, or null for the plan’s days (owners and admins)',
        params: WorkspaceParams,
        body: UpdateRetentionBody,
        response: { 200: WorkspaceRetention, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      const { rawDays } = request.body;
      const policy = await readRetentionPolicy(app.db, workspaceId, cap());
      if (!policy) throw notFound('Workspace not found');
      if (rawDays !== null && rawDays > policy.planDays)
        throw badRequest(RetentionText.overPlan(planById(policy.planId).name, policy.planDays), {
          rawDays: 'Over the plan',
        });
      if (rawDays !== null && policy.operatorCapDays !== null && rawDays > policy.operatorCapDays)
        throw badRequest(RetentionText.overCap(policy.operatorCapDays), { rawDays: 'Over the cap' });
      await chooseRawRetention(app.db, workspaceId, rawDays);
      const changed = { ...policy, chosenDays: rawDays };
      return describeRetention(
        { ...changed, rawDays: effectiveRawDays(policy.planDays, rawDays, policy.operatorCapDays) },
        Date.now(),
      );
    },
  );
  return Promise.resolve();
};
