import { z } from 'zod';
import { PLAN_IDS, type PlanId } from './plans';
import { WORKSPACE_TYPES } from './workspaces';

export const CanCreateWorkspaceQuery = z.object({ type: z.enum(WORKSPACE_TYPES).optional().default('personal') });
export const CanCreateWorkspaceResult = z.object({ canCreate: z.boolean(), error: z.string().nullable() });
export type CanCreateWorkspaceResult = z.infer<typeof CanCreateWorkspaceResult>;

export const WorkspaceLimitsResult = z.object({
  plan: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
  workspaces: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
  agentCalls: z.object({ used: z.number().int(), limit: z.number().int().nullable(), periodStart: z.string() }),
});
export type WorkspaceLimitsResult = z.infer<typeof WorkspaceLimitsResult>;

export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due'] as const;
export const SubscriptionDto = z.object({
  plan: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
  interval: z.enum(['monthly', 'annually']),
  status: z.enum(SUBSCRIPTION_STATUSES),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
});
export type SubscriptionDto = z.infer<typeof SubscriptionDto>;

/** PUT /billing/subscription. Paid plans need a payment provider; see docs/api.md. */
export const UpdateSubscriptionBody = z.object({
  plan: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
  interval: z.enum(['monthly', 'annually']).optional().default('monthly'),
});

/** Text of the plan-limit refusal, shared by can-create-workspace and POST /workspaces (403). */
export function workspaceLimitText(planName: string, limit: number): string {
  return `Your ${planName} plan allows ${limit} workspace${limit === 1 ? '' : 's'}. Upgrade to create more.`;
}

/** Text of the refusal to create a team workspace on a plan without team workspaces. */
export function teamWorkspaceText(planName: string): string {
  return `Team workspaces are not included in the ${planName} plan. Upgrade to create one.`;
}

/** PUT /billing/subscription to a more expensive plan: that takes a payment (checkout). */
export function paidPlanNeedsCheckoutText(planName: string): string {
  return `Upgrading to the ${planName} plan needs a payment. Use Upgrade to pay through checkout.`;
}

/** PUT /billing/subscription to a plan with fewer workspaces than the account owns. */
export function downgradeBlockedText(planName: string, limit: number, owned: number): string {
  return `The ${planName} plan allows ${limit} workspace${limit === 1 ? '' : 's'} and you own ${owned}. Delete workspaces before changing plan.`;
}

/** POST /billing/create-checkout-session: the plan and interval to pay for. */
export const CheckoutSessionBody = z.object({
  planId: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
  interval: z.enum(['monthly', 'annually']).optional().default('monthly'),
});
export type CheckoutSessionBody = z.input<typeof CheckoutSessionBody>;
/** Where to send the user to pay (the provider's hosted page), and the provider's session id. */
export const CheckoutSessionResult = z.object({ sessionId: z.string(), url: z.string() });
export type CheckoutSessionResult = z.infer<typeof CheckoutSessionResult>;
/** POST /billing/create-portal-session: the provider's page where the user manages payment. */
export const PortalSessionResult = z.object({ url: z.string() });
export type PortalSessionResult = z.infer<typeof PortalSessionResult>;
/** 501 of both payment routes while no payment provider is configured. */
export const paymentsNotConfiguredText = 'Payments are not configured';
