import type { Queryable } from '../../db/database';
import { PLAN_IDS, planById, type PlanId } from '../../../contract/plans';
import { ROLLUP_RETENTION_DAYS, type WorkspaceRetention } from '../../../contract/retention';

// How long one workspace keeps raw data (docs/operations.md "Retention"): the smallest of its
// owner's plan's days, the days the workspace chose and the operator's cap. Routes, analytics and
// the expiry job read it here, so the screens and the job agree on one number.

export const DAY_MS = 86_400_000;

export interface RetentionPolicy {
  workspaceId: string;
  planId: PlanId;
  planDays: number;
  chosenDays: number | null;
  operatorCapDays: number | null;
  rawDays: number;
}

interface PolicyRow {
  id: string;
  plan: string | null;
  raw_retention_days: number | null;
}

export function effectiveRawDays(planDays: number, chosenDays: number | null, capDays: number | null): number {
  return Math.min(planDays, chosenDays ?? planDays, capDays ?? planDays);
}

function policyOf(row: PolicyRow, operatorCapDays: number | null): RetentionPolicy {
  // Accounts without a subscription row (made before subscriptions existed) are on starter.
  const planId = PLAN_IDS.find((id) => id === row.plan) ?? 'starter';
  const planDays = planById(planId).rawRetentionDays;
  return {
    workspaceId: row.id,
    planId,
    planDays,
    chosenDays: row.raw_retention_days,
    operatorCapDays,
    rawDays: effectiveRawDays(planDays, row.raw_retention_days, operatorCapDays),
  };
}

const POLICY_SQL = `select w.id, s.plan, w.raw_retention_days
  from workspaces w left join subscriptions s on s.user_id = w.owner_id`;

export async function readRetentionPolicy(
  db: Queryable,
  workspaceId: string,
  operatorCapDays: number | null,
): Promise<RetentionPolicy | undefined> {
  const rows = await db.query<PolicyRow>(`${POLICY_SQL} where w.id = $1`, [workspaceId]);
  return rows[0] && policyOf(rows[0], operatorCapDays);
}

export async function readAllRetentionPolicies(
  db: Queryable,
  operatorCapDays: number | null,
): Promise<RetentionPolicy[]> {
  const rows = await db.query<PolicyRow>(`${POLICY_SQL} order by w.id`);
  return rows.map((row) => policyOf(row, operatorCapDays));
}

export async function chooseRawRetention(db: Queryable, workspaceId: string, days: number | null): Promise<void> {
  await db.query('update workspaces set raw_retention_days = $2, updated_at = now() where id = $1', [
    workspaceId,
    days,
  ]);
}

export function describeRetention(policy: RetentionPolicy, nowMs: number): WorkspaceRetention {
  return {
    rawDays: policy.rawDays,
    planDays: policy.planDays,
    chosenDays: policy.chosenDays,
    operatorCapDays: policy.operatorCapDays,
    minuteRollupDays: ROLLUP_RETENTION_DAYS.minutes,
    hourRollupDays: ROLLUP_RETENTION_DAYS.hours,
    dayRollupDays: ROLLUP_RETENTION_DAYS.days,
    rawKeptSince: new Date(nowMs - policy.rawDays * DAY_MS).toISOString(),
  };
}
