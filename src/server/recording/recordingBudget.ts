import { RECORDING_BUDGETS, type PlanId } from '../../contract/plans';
import type { Queryable } from '../db/database';

// Per-workspace recording budgets (src/contract/plans.ts RECORDING_BUDGETS): one client flooding
// notifications must not fill the database, nor the recorder's time, at other tenants' expense.
// A workspace past its budget loses its own messages (counted), never its tool calls, and its
// traffic is still forwarded untouched.

interface Bucket {
  tokens: number;
  refilledMs: number;
  day: number;
  bytesToday: number;
}

export class RecordingBudgets {
  private readonly buckets = new Map<string, Bucket>();
  /** Messages not stored because their workspace was over its budget. */
  overBudget = 0;

  constructor(
    private readonly planOf: (workspaceId: string) => PlanId,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether the workspace has spent its budget for now (no message could be stored): checked
   * before a message's payload is even looked at, so a flood past its budget costs a count, not
   * the recorder's work. Counts the message as not stored when so.
   */
  spent(workspaceId: string): boolean {
    const { bucket, budget } = this.refilled(workspaceId);
    if (bucket.tokens >= 1 && bucket.bytesToday < budget.bytesPerDay) return false;
    this.overBudget++;
    return true;
  }

  /** Whether a message of `bytes` may be stored for the workspace now (and takes its share if so). */
  admit(workspaceId: string, bytes: number): boolean {
    const { bucket, budget } = this.refilled(workspaceId);
    if (bucket.tokens < 1 || bucket.bytesToday + bytes > budget.bytesPerDay) {
      this.overBudget++;
      return false;
    }
    bucket.tokens -= 1;
    bucket.bytesToday += bytes;
    return true;
  }

  private refilled(workspaceId: string): { bucket: Bucket; budget: (typeof RECORDING_BUDGETS)[PlanId] } {
    const budget = RECORDING_BUDGETS[this.planOf(workspaceId)];
    const nowMs = this.now();
    const day = Math.floor(nowMs / 86_400_000);
    const burst = budget.messagesPerSecond * 2;
    let bucket = this.buckets.get(workspaceId);
    if (!bucket) {
      bucket = { tokens: burst, refilledMs: nowMs, day, bytesToday: 0 };
      this.buckets.set(workspaceId, bucket);
    }
    bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.refilledMs) / 1000) * budget.messagesPerSecond);
    bucket.refilledMs = nowMs;
    if (bucket.day !== day) {
      bucket.day = day;
      bucket.bytesToday = 0;
    }
    return { bucket, budget };
  }
}

const PLAN_TTL_MS = 5 * 60_000;

/**
 * Workspace → plan (its owner's subscription), read in the background and kept 5 minutes; a
 * workspace not read yet counts as starter (the smallest budget) for the moment it takes.
 */
export class WorkspacePlans {
  private readonly plans = new Map<string, { plan: PlanId; expires: number; loading: boolean }>();

  constructor(private readonly db: Queryable) {}

  planOf = (workspaceId: string): PlanId => {
    const known = this.plans.get(workspaceId);
    const nowMs = Date.now();
    if (!known || (known.expires < nowMs && !known.loading)) this.load(workspaceId, known?.plan ?? 'starter');
    return known?.plan ?? 'starter';
  };

  private load(workspaceId: string, current: PlanId): void {
    this.plans.set(workspaceId, { plan: current, expires: Date.now() + PLAN_TTL_MS, loading: true });
    this.db
      .query<{ plan: string }>(
        'select s.plan from workspaces w join subscriptions s on s.user_id = w.owner_id where w.id = $1',
        [workspaceId],
      )
      .then(
        (rows) => {
          const plan = rows[0]?.plan;
          this.plans.set(workspaceId, {
            plan: plan === 'pro' || plan === 'enterprise' ? plan : 'starter',
            expires: Date.now() + PLAN_TTL_MS,
            loading: false,
          });
        },
        // The database is away: keep what was known, ask again later.
        () => this.plans.set(workspaceId, { plan: current, expires: Date.now() + 10_000, loading: false }),
      );
  }
}
