// Plans of SPEC §9, defined once. Price ids are placeholders until an operator configures a
// payment provider (server config TOOLSCOPE_PRICE_IDS); the flow never hard-codes them.
import { RAW_RETENTION_DAYS, daysText } from './retention';

export type PlanId = 'starter' | 'pro' | 'enterprise';
export const PLAN_IDS: readonly PlanId[] = ['starter', 'pro', 'enterprise'];

export interface PlanFeature {
  name: string;
  included: boolean;
  limit?: string;
}

export interface Plan {
  id: PlanId;
  name: string;
  description: string;
  price: { monthly: number; annually: number };
  /** Card payment provider price ids; empty string = not configured. */
  priceId: { monthly: string; annually: string };
  popular: boolean;
  /** Agent (tool) calls per calendar month through the proxy; null = unlimited. */
  agentCallsPerMonth: number | null;
  /** Workspaces the account may own; null = unlimited. */
  workspaces: number | null;
  /** Days raw sessions, messages, calls and payloads are kept (contract/retention.ts). */
  rawRetentionDays: number;
  /**
   * The card's lines. Each is what the server enforces (docs/settings.md "Plans": which rule
   * backs which line; test/server/billing/planCards.test.ts checks them).
   */
  features: PlanFeature[];
}

export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: 'For individuals tracing their first agents.',
    price: { monthly: 0, annually: 0 },
    priceId: { monthly: 'starter', annually: 'starter' },
    popular: false,
    agentCallsPerMonth: 1_000,
    workspaces: 1,
    rawRetentionDays: RAW_RETENTION_DAYS.starter,
    features: [
      { name: 'Agent calls per month', included: true, limit: '1,000' },
      { name: 'Workspaces', included: true, limit: '1' },
      { name: 'Raw data kept', included: true, limit: daysText(RAW_RETENTION_DAYS.starter) },
      { name: 'Invite members', included: true },
      { name: 'Live activity stream', included: true },
      { name: 'Session replay', included: true },
      // Drift alerts warn of a possible rug pull (docs/notifications.md): a safety feature, for everyone.
      { name: 'Schema drift alerts', included: true },
      // Enforced by checkWorkspaceCreation: Starter creates no workspace of the team type.
      { name: 'Team workspaces', included: false },
    ],
  },
  {
    id: 'pro',
    name: 'Pro',
    description: 'For teams running agents in production.',
    price: { monthly: 29, annually: 290 },
    priceId: { monthly: 'pro', annually: 'pro' },
    popular: true,
    agentCallsPerMonth: 100_000,
    workspaces: 5,
    rawRetentionDays: RAW_RETENTION_DAYS.pro,
    features: [
      { name: 'Agent calls per month', included: true, limit: '100,000' },
      { name: 'Workspaces', included: true, limit: '5' },
      { name: 'Raw data kept', included: true, limit: daysText(RAW_RETENTION_DAYS.pro) },
      { name: 'Invite members', included: true },
      { name: 'Live activity stream', included: true },
      { name: 'Session replay', included: true },
      { name: 'Schema drift alerts', included: true },
      { name: 'Team workspaces', included: true },
    ],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    description: 'Unlimited scale, your own database, priority support.',
    price: { monthly: 99, annually: 990 },
    priceId: { monthly: 'enterprise', annually: 'enterprise' },
    popular: false,
    agentCallsPerMonth: null,
    workspaces: null,
    rawRetentionDays: RAW_RETENTION_DAYS.enterprise,
    features: [
      { name: 'Agent calls per month', included: true, limit: 'Unlimited' },
      { name: 'Workspaces', included: true, limit: 'Unlimited' },
      { name: 'Raw data kept', included: true, limit: daysText(RAW_RETENTION_DAYS.enterprise) },
      { name: 'Invite members', included: true },
      { name: 'Live activity stream', included: true },
      { name: 'Session replay', included: true },
      { name: 'Schema drift alerts', included: true },
      { name: 'Team workspaces', included: true },
    ],
  },
];

export const CURRENT_PLAN_ID: PlanId = 'starter';
export const ANNUAL_BADGE = 'Save 17%';

export function planById(id: PlanId): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/** SPEC §9: the displayed saving is (monthly × 12 − annual) / 12, per month. */
export function annualSavingPerMonth(plan: Pick<Plan, 'price'>): number {
  return (plan.price.monthly * 12 - plan.price.annually) / 12;
}

/**
 * What the recorder stores per workspace, by plan (docs/proxy.md "Limits"): messages other than
 * tool calls per second (a bucket holding two seconds' worth, so bursts pass) and payload bytes
 * per UTC day. Past either, that workspace's further messages are counted and not stored; its
 * tool calls are always stored, and traffic is not slowed or refused for it (the proxy's inbound
 * budget, PROXY_INBOUND_BYTES_PER_SECOND below, is what refuses a flood).
 */
export const RECORDING_BUDGETS: Readonly<Record<PlanId, { messagesPerSecond: number; bytesPerDay: number }>> = {
  starter: { messagesPerSecond: 50, bytesPerDay: 100 * 1_048_576 },
  pro: { messagesPerSecond: 500, bytesPerDay: 2 * 1_073_741_824 },
  enterprise: { messagesPerSecond: 5_000, bytesPerDay: 50 * 1_073_741_824 },
};

/**
 * What the proxy reads of agents' request bodies per workspace and second, by plan (docs/proxy.md
 * "Limits"). A body past it is answered 429 before it is parsed: parsing and recording a flood is
 * work on the proxy's one thread, which every tenant shares. The bucket holds two seconds' worth,
 * and never less than the largest body the proxy takes, so one such body always fits.
 */
export const PROXY_INBOUND_BYTES_PER_SECOND: Readonly<Record<PlanId, number>> = {
  starter: 1 * 1_048_576,
  pro: 8 * 1_048_576,
  enterprise: 64 * 1_048_576,
};
