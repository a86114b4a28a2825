import type { Queryable } from '../../db/database';
import type { SubscriptionDto } from '../../../contract/billing';
import type { PlanId } from '../../../contract/plans';

type Interval = SubscriptionDto['interval'];

interface SubscriptionRow {
  plan: PlanId;
  billing_interval: Interval;
  status: SubscriptionDto['status'];
  current_period_start: Date;
  current_period_end: Date;
}

/** Every account starts on starter (made in the sign-up transaction). */
export async function insertStarterSubscription(db: Queryable, userId: string, now = new Date()): Promise<void> {
  const period = billingPeriodContaining(now, 'monthly', monthStart(now));
  await db.query(
    `insert into subscriptions (user_id, plan, billing_interval, status, current_period_start, current_period_end)
     values ($1, 'starter', 'monthly', 'active', $2, $3)`,
    [userId, period.start, period.end],
  );
}

/**
 * The user's subscription with its period moved forward to the one containing `now` (periods
 * roll on without a payment provider to do it). `forUpdate` locks the row, which serialises
 * plan-limited actions of one account.
 */
export async function readSubscription(
  db: Queryable,
  userId: string,
  options: { forUpdate?: boolean; now?: Date } = {},
): Promise<SubscriptionDto> {
  const now = options.now ?? new Date();
  const rows = await db.query<SubscriptionRow>(
    `select plan, billing_interval, status, current_period_start, current_period_end from subscriptions where user_id = $1${options.forUpdate ? ' for update' : ''}`,
    [userId],
  );
  const row = rows.at(0);
  // Accounts made before subscriptions existed (or by hand) are on starter.
  const interval = row?.billing_interval ?? 'monthly';
  const period = billingPeriodContaining(now, interval, row ? new Date(row.current_period_start) : monthStart(now));
  return {
    plan: row?.plan ?? 'starter',
    interval,
    status: row?.status ?? 'active',
    currentPeriodStart: period.start.toISOString(),
    currentPeriodEnd: period.end.toISOString(),
  };
}

export async function saveSubscription(
  db: Queryable,
  userId: string,
  plan: PlanId,
  interval: Interval,
  now = new Date(),
): Promise<void> {
  // Periods are aligned to calendar months (UTC), like the monthly agent-call quota.
  const period = billingPeriodContaining(now, interval, monthStart(now));
  await db.query(
    `insert into subscriptions (user_id, plan, billing_interval, status, current_period_start, current_period_end, updated_at)
     values ($1, $2, $3, 'active', $4, $5, now())
     on conflict (user_id) do update set plan = $2, billing_interval = $3, status = 'active',
       current_period_start = $4, current_period_end = $5, updated_at = now()`,
    [userId, plan, interval, period.start, period.end],
  );
}

/** Agent calls recorded this calendar month (UTC) in the workspaces the user owns. */
export async function agentCallsSince(db: Queryable, userId: string, since: Date): Promise<number> {
  const rows = await db.query<{ calls: number }>(
    `select coalesce(sum(u.calls), 0)::int as calls from usage_minutes u
     join workspaces w on w.id = u.workspace_id
     where w.owner_id = $1 and u.bucket >= $2`,
    [userId, since],
  );
  return rows[0].calls;
}

export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

function addPeriod(date: Date, interval: Interval, count = 1): Date {
  const months = interval === 'monthly' ? count : 12 * count;
  return new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      date.getUTCDate(),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ),
  );
}

/** The period of `interval` length, anchored at `anchor`, that contains `now`. */
export function billingPeriodContaining(now: Date, interval: Interval, anchor: Date): { start: Date; end: Date } {
  const stepMonths = interval === 'monthly' ? 1 : 12;
  const monthsApart =
    (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  let periods = Math.floor(monthsApart / stepMonths);
  let start = addPeriod(anchor, interval, periods);
  if (start > now) start = addPeriod(anchor, interval, --periods);
  if (addPeriod(start, interval) <= now) start = addPeriod(anchor, interval, ++periods);
  return { start, end: addPeriod(start, interval) };
}
