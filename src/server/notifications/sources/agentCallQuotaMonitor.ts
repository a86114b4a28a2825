import type { FastifyBaseLogger } from 'fastify';
import { LiveMessageTypes, type LiveMessage } from '../../../contract/live';
import { AGENT_CALL_USAGE_ALERT_PERCENTS } from '../../../contract/notifications';
import { PLAN_IDS, planById, type PlanId } from '../../../contract/plans';
import type { Queryable } from '../../db/database';
import type { EventBus } from '../../events/bus';
import type { NotificationService } from '../NotificationService';

// billing_alert at 80% and 100% of the plan's agent calls per calendar month (UTC). The quota
// belongs to the account that owns the workspace, so calls of all its workspaces add up and the
// owner is told (an account-level notification). Counts start from usage_minutes when the
// process starts, then follow the finished 'tool_call' messages of the bus. 'once' grouping per
// threshold and month keeps a restart from telling the owner twice.
const PLAN_CACHE_MS = 60_000;

interface AccountUsage {
  period: string;
  used: number;
}

export interface AgentCallQuotaMonitorDeps {
  bus: EventBus;
  db: Queryable;
  notifications: NotificationService;
  clock?: () => Date;
  log?: FastifyBaseLogger;
}

export class AgentCallQuotaMonitor {
  private readonly usage = new Map<string, AccountUsage>();
  private readonly ownerOf = new Map<string, string>();
  private readonly plans = new Map<string, { plan: PlanId; expiresAt: number }>();
  private unsubscribe: (() => void) | undefined;
  /** Finished calls per workspace not counted yet (see onMessage). */
  private uncounted = new Map<string, number>();
  private countScheduled = false;
  /** Calls are counted one after another, in bus order, after the seed. */
  private queue: Promise<void> = Promise.resolve();
  private readonly clock: () => Date;

  constructor(private readonly deps: AgentCallQuotaMonitorDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  start(): void {
    if (this.unsubscribe) return;
    this.queue = this.seed().catch((error: unknown) =>
      this.deps.log?.error({ err: error }, 'agent call usage seed failed'),
    );
    this.unsubscribe = this.deps.bus.subscribeAll((workspaceId, message) => this.onMessage(workspaceId, message));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.idle();
  }

  /** Resolves when every call received so far is counted (tests, shutdown). */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  /** Calls counted this month for the account (for tests and diagnostics). */
  usedThisMonth(ownerId: string): number {
    const usage = this.usage.get(ownerId);
    return usage && usage.period === periodOf(this.clock()) ? usage.used : 0;
  }

  private async seed(): Promise<void> {
    const now = this.clock();
    const rows = await this.deps.db.query<{ owner_id: string; calls: number }>(
      `select w.owner_id, sum(u.calls)::int as calls
         from usage_minutes u join workspaces w on w.id = u.workspace_id
        where u.bucket >= $1
        group by w.owner_id`,
      [periodStart(now)],
    );
    for (const row of rows) this.usage.set(row.owner_id, { period: periodOf(now), used: row.calls });
  }

  private onMessage(workspaceId: string, message: LiveMessage): void {
    if (message.type !== LiveMessageTypes.toolCall) return;
    const status = (message.data as { status?: unknown } | null)?.status;
    if (status === 'pending') return;
    // A recorder flush announces its whole batch at once: the calls are tallied here and counted
    // per workspace in one step, not one promise chain per call (that was most of the work the
    // proxy's thread did for this monitor, in one burst per flush).
    this.uncounted.set(workspaceId, (this.uncounted.get(workspaceId) ?? 0) + 1);
    if (this.countScheduled) return;
    this.countScheduled = true;
    this.queue = this.queue
      .then(() => this.countUncounted())
      .catch((error: unknown) => this.deps.log?.error({ err: error }, 'agent call usage count failed'));
  }

  private async countUncounted(): Promise<void> {
    this.countScheduled = false;
    const tally = this.uncounted;
    this.uncounted = new Map();
    for (const [workspaceId, calls] of tally) {
      // One workspace failing (its owner, plan or alert) must not cost the others their counts.
      await this.count(workspaceId, calls).catch((error: unknown) =>
        this.deps.log?.error({ err: error }, 'agent call usage count failed'),
      );
    }
  }

  private async count(workspaceId: string, calls: number): Promise<void> {
    const ownerId = await this.owner(workspaceId);
    if (!ownerId) return;
    const period = periodOf(this.clock());
    const usage = this.usage.get(ownerId);
    const current = usage && usage.period === period ? usage : { period, used: 0 };
    const before = current.used;
    current.used += calls;
    this.usage.set(ownerId, current);

    const plan = planById(await this.planOf(ownerId));
    const limit = plan.agentCallsPerMonth;
    if (limit === null) return;
    // Every threshold the tally crossed, in order, as counting the calls one by one would have.
    const crossed = AGENT_CALL_USAGE_ALERT_PERCENTS.filter((percent) => {
      const threshold = Math.ceil((limit * percent) / 100);
      return before < threshold && current.used >= threshold;
    });
    for (const percent of crossed)
      await this.alert(ownerId, plan, limit, percent, period, Math.max(before + 1, Math.ceil((limit * percent) / 100)));
  }

  /** `used`: the count at which this threshold was crossed. */
  private async alert(
    ownerId: string,
    plan: ReturnType<typeof planById>,
    limit: number,
    percent: number,
    period: string,
    used: number,
  ): Promise<void> {
    const full = percent >= 100;
    await this.deps.notifications.raiseForUser(ownerId, {
      workspaceId: null,
      type: 'billing_alert',
      severity: full ? 'error' : 'warning',
      title: full ? 'Agent Call Quota Reached' : `Agent Calls at ${percent}% of Your Plan`,
      message: full
        ? `You have used all ${limit.toLocaleString('en-US')} agent calls of the ${plan.name} plan this month. Upgrade to raise the limit.`
        : `You have used ${used.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} agent calls of the ${plan.name} plan this month.`,
      actionUrl: '/settings?tab=billing',
      metadata: { plan: plan.id, used, limit, percent, period },
      groupKey: `agent-calls:${period}:${percent}`,
      repeat: 'once',
    });
  }

  private async owner(workspaceId: string): Promise<string | undefined> {
    const cached = this.ownerOf.get(workspaceId);
    if (cached) return cached;
    const rows = await this.deps.db.query<{ owner_id: string }>('select owner_id from workspaces where id = $1', [
      workspaceId,
    ]);
    const owner = rows[0]?.owner_id;
    if (owner) this.ownerOf.set(workspaceId, owner);
    return owner;
  }

  private async planOf(ownerId: string): Promise<PlanId> {
    const now = this.clock().getTime();
    const cached = this.plans.get(ownerId);
    if (cached && cached.expiresAt > now) return cached.plan;
    const rows = await this.deps.db.query<{ plan: string }>('select plan from subscriptions where user_id = $1', [
      ownerId,
    ]);
    const stored = rows[0]?.plan;
    const plan = PLAN_IDS.includes(stored as PlanId) ? (stored as PlanId) : 'starter';
    this.plans.set(ownerId, { plan, expiresAt: now + PLAN_CACHE_MS });
    return plan;
  }
}

function periodStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** 'YYYY-MM' of the UTC calendar month. */
function periodOf(now: Date): string {
  return periodStart(now).toISOString().slice(0, 7);
}
