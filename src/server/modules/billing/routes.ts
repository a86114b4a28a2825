import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CanCreateWorkspaceQuery,
  CheckoutSessionBody,
  CheckoutSessionResult,
  PortalSessionResult,
  paymentsNotConfiguredText,
  CanCreateWorkspaceResult,
  SubscriptionDto,
  UpdateSubscriptionBody,
  WorkspaceLimitsResult,
  downgradeBlockedText,
  paidPlanNeedsCheckoutText,
} from '../../../contract/billing';
import { planById } from '../../../contract/plans';
import { Paths } from '../../../contract/routes';
import { badRequest, conflict, forbidden, HttpError } from '../../http/errors';
import { ErrorText } from '../../../contract/errors';
import { readAgentCallQuota } from '../../data/billing/agentCallQuota';
import { findUserById } from '../users/store';
import { errorResponses } from '../../http/errorResponses';
import { countOwnedWorkspaces } from '../workspaces/store';
import { checkWorkspaceCreation } from './planLimits';
import { readSubscription, saveSubscription } from './store';

// Plan, limits and usage of the signed-in account (mounted behind `authenticate`).
export const billingRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];

  app.get(
    Paths.canCreateWorkspace,
    {
      schema: {
        tags,
        summary: 'Whether the plan allows one more workspace of this type',
        querystring: CanCreateWorkspaceQuery,
        response: { 200: CanCreateWorkspaceResult, ...errorResponses(400, 401) },
      },
    },
    async (request) => checkWorkspaceCreation(app.db, request.userId, request.query.type),
  );

  app.get(
    Paths.workspaceLimits,
    {
      schema: {
        tags,
        summary: 'Workspaces owned and agent calls this month against the plan',
        response: { 200: WorkspaceLimitsResult, ...errorResponses(401) },
      },
    },
    async (request) => {
      // The same count the proxy's quota gate admits calls against (quotaGate.ts).
      const quota = await readAgentCallQuota(app.db, request.userId);
      const plan = planById(quota.plan);
      return {
        plan: plan.id,
        workspaces: { used: await countOwnedWorkspaces(app.db, request.userId), limit: plan.workspaces },
        agentCalls: { used: quota.used, limit: quota.limit, periodStart: quota.periodStart },
      };
    },
  );

  app.get(
    Paths.subscription,
    {
      schema: {
        tags,
        summary: 'The account’s plan and billing period',
        response: { 200: SubscriptionDto, ...errorResponses(401) },
      },
    },
    async (request) => readSubscription(app.db, request.userId),
  );

  app.put(
    Paths.subscription,
    {
      schema: {
        tags,
        summary:
          'Change plan: moving to Starter, or between intervals of the same plan; paid upgrades go through checkout',
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
        if (target.price.monthly > planById(current.plan).price.monthly)
          throw forbidden(paidPlanNeedsCheckoutText(target.name));
        const owned = await countOwnedWorkspaces(tx, request.userId);
        if (target.workspaces !== null && owned > target.workspaces)
          throw conflict(downgradeBlockedText(target.name, target.workspaces, owned));
        if (current.plan !== planId || current.interval !== interval)
          await saveSubscription(tx, request.userId, planId, interval);
        return readSubscription(tx, request.userId);
      });
    },
  );

  // Payments go through a provider (paymentProvider.ts); without one both routes answer 501 and
  // the upgrade dialog keeps SPEC §4's local stub.
  const notConfigured = () => new HttpError(501, paymentsNotConfiguredText, 'not_implemented');

  app.post(
    Paths.checkoutSession,
    {
      schema: {
        tags,
        summary: 'Start paying for a plan at the payment provider (501 while none is configured)',
        body: CheckoutSessionBody,
        response: { 200: CheckoutSessionResult, ...errorResponses(400, 401, 501) },
      },
    },
    async (request) => {
      const provider = app.paymentProvider;
      if (!provider) throw notConfigured();
      const { planId, interval } = request.body;
      const plan = planById(planId);
      const priceId = app.config.priceIds[`${planId}.${interval}`] ?? '';
      if (plan.price.monthly === 0) throw badRequest(`The ${plan.name} plan is free: no payment is needed`);
      if (!priceId) throw badRequest(ErrorText.priceIdNotConfigured);
      const user = await findUserById(app.db, request.userId);
      const base = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
      return provider.createCheckoutSession({
        userId: request.userId,
        email: user?.email ?? '',
        planId,
        interval,
        priceId,
        successUrl: `${base}/settings?tab=billing&checkout=success`,
        cancelUrl: `${base}/settings?tab=billing&checkout=cancelled`,
      });
    },
  );

  app.post(
    Paths.portalSession,
    {
      schema: {
        tags,
        summary: 'Open the payment provider’s billing portal (501 while none is configured)',
        response: { 200: PortalSessionResult, ...errorResponses(401, 501) },
      },
    },
    async (request) => {
      const provider = app.paymentProvider;
      if (!provider) throw notConfigured();
      const user = await findUserById(app.db, request.userId);
      const base = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
      return provider.createPortalSession({
        userId: request.userId,
        email: user?.email ?? '',
        returnUrl: `${base}/settings?tab=billing`,
      });
    },
  );
  return Promise.resolve();
};
