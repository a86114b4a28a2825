import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CanCreateWorkspaceQuery,
  CanCreateWorkspaceResult,
  SubscriptionDto,
  UpdateSubscriptionBody,
  WorkspaceLimitsResult,
  downgradeBlockedText,
  paidPlanNeedsCheckoutText,
} from '../../../contract/billing';
import { planById } from '../../../contract/plans';
import { Paths } from '../../../contract/routes';
import { conflict, forbidden } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { countOwnedWorkspaces } from '../workspaces/store';
import { checkWorkspaceCreation } from './planLimits';
import { agentCallsSince, monthStart, readSubscription, saveSubscription } from './store';

// Plan, limits and usage of the signed-in account (mounted behind `authenticate`).
export const billingRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];

  app.get(
    Paths.canCreateWorkspace,
    { schema: { tags, summary: 'Whether the plan allows one more workspace of this type', querystring: CanCreateWorkspaceQuery, response: { 200: CanCreateWorkspaceResult, ...errorResponses(400, 401) } } },
    async (request) => checkWorkspaceCreation(app.db, request.userId, request.query.type),
  );

  app.get(
    Paths.workspaceLimits,
    { schema: { tags, summary: 'Workspaces owned and agent calls this month against the plan', response: { 200: WorkspaceLimitsResult, ...errorResponses(401) } } },
    async (request) => {
      const subscription = await readSubscription(app.db, request.userId);
      const plan = planById(subscription.plan);
      const periodStart = monthStart(new Date());
      return {
        plan: plan.id,
        workspaces: { used: await countOwnedWorkspaces(app.db, request.userId), limit: plan.workspaces },
        agentCalls: { used: await agentCallsSince(app.db, request.userId, periodStart), limit: plan.agentCallsPerMonth, periodStart: periodStart.toISOString() },
      };
    },
  );

  app.get(
    Paths.subscription,
    { schema: { tags, summary: 'The account’s plan and billing period', response: { 200: SubscriptionDto, ...errorResponses(401) } } },
    async (request) => readSubscription(app.db, request.userId),
  );

  app.put(
    Paths.subscription,
    {
      schema: {
        tags,
        summary: 'Change plan: moving to Starter, or between intervals of the same plan; paid upgrades go through checkout',
        body: UpdateSubscriptionBody,
        response: { 200: SubscriptionDto, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { plan: planId, interval } = request.body;
      return app.db.transaction(async (tx) => {
        const current = await readSubscription(tx, request.userId, { forUpdate: true });
        const target = planById(planId);
        // No payment provider takes money here, so this route can never move an account up:
        // upgrades are the checkout's job (SPEC §4: the payment step is a stub).
        if (target.price.monthly > planById(current.plan).price.monthly) throw forbidden(paidPlanNeedsCheckoutText(target.name));
        const owned = await countOwnedWorkspaces(tx, request.userId);
        if (target.workspaces !== null && owned > target.workspaces) throw conflict(downgradeBlockedText(target.name, target.workspaces, owned));
        if (current.plan !== planId || current.interval !== interval) await saveSubscription(tx, request.userId, planId, interval);
        return readSubscription(tx, request.userId);
      });
    },
  );
};
