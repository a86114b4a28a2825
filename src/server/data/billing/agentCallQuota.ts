import type { Queryable } from '../../db/database';
import { planById, type PlanId } from '../../../contract/plans';

// The month's agent calls of an account against its plan, as the proxy's quota gate counts them
// (agent_call_counters, src/server/proxy/quotaGate.ts). Billing's workspace-limits and analytics'
// usage/daily read it here, so every screen shows the numbers the gate enforces.
export function monthPeriod(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
}

export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Used and limit of the account this month, as the gate counts them (billing, analytics). */
export async function readAgentCallQuota(
  db: Queryable,
  ownerId: string,
  now = new Date(),
): Promise<{ plan: PlanId; used: number; limit: number | null; periodStart: string; resetsAt: string }> {
  const period = monthPeriod(now);
  const rows = await db.query<{ plan: PlanId | null; used: number }>(
    `select s.plan,
            coalesce((select c.used from agent_call_counters c where c.owner_id = $1 and c.period = $2::date),
                     (select coalesce(sum(u.calls), 0)::int from usage_minutes u join workspaces w on w.id = u.workspace_id
                       where w.owner_id = $1 and u.bucket >= $2::date::timestamp at time zone 'utc')) as used
       from (select $1::uuid as user_id) me left join subscriptions s on s.user_id = me.user_id`,
    [ownerId, period],
  );
  const plan = planById((rows[0]?.plan ?? 'starter'));
  return {
    plan: plan.id,
    used: rows[0]?.used ?? 0,
    limit: plan.agentCallsPerMonth,
    periodStart: `${period}T00:00:00.000Z`,
    resetsAt: nextMonthStart(now).toISOString(),
  };
}
