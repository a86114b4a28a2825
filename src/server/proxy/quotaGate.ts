import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { PlanId } from '../../contract/plans';
import { nextMonthStart } from '../data/billing/agentCallQuota';
import type { AgentCallLimitData } from '../../contract/agentAccess';
import { admitCalls, countMadeCalls, releaseCalls, type CounterReading } from './quotaStatements';

// The monthly agent-call quota of SPEC §9, enforced at the proxy for `tools/call` against one
// counter per account and month in the shared database (quotaStatements.ts). docs/access.md.
//
// The hot path asks the database as rarely as exactness allows:
// - a plan without a limit admits from memory; its calls reach the counter in the background, once
//   a second, and that statement also re-reads the plan (an upgrade or downgrade applies within it);
// - a plan with a limit admits from a lease: a statement reserves the calls asked for plus 1 % of
//   what is left (at most 100) in the counter, and later calls are admitted from memory while the
//   lease lasts. Below 100 calls left there is no extra, so every call near the limit is counted
//   by the database itself and instances racing for the last calls never pass it. A lease unused
//   for a second goes back to the counter (another instance may need it), and so does any lease at
//   close. A crash keeps at most one lease per workspace reserved until the month ends: calls
//   refused early, never admitted over the limit.
// - a workspace not seen for POLICY_TTL_MS asks the database again before anything else.
// Calls of one workspace arriving while its statement is in flight wait and go together in the next
// one, so the database sees at most one admitting statement in flight per workspace per instance.
export interface Admission {
  /** How many of the calls asked for were admitted (the first ones). */
  admitted: number;
  used: number;
  limit: number | null;
  plan: PlanId;
}

/** How long a workspace's plan is trusted without the database confirming it. */
const POLICY_TTL_MS = 5_000;
/** How often calls admitted from memory are added to the counter and idle leases given back. */
const SWEEP_MS = 1_000;
const MAX_LEASE = 100;

interface Waiting {
  count: number;
  resolve(admission: Admission): void;
  reject(error: unknown): void;
}

/** What this instance knows of a workspace's quota. */
interface WorkspaceQuota {
  plan: PlanId;
  limit: number | null;
  /** The counter as the last statement returned it (leases included). */
  used: number;
  checkedAt: number;
  /** Admitted from memory on a plan without a limit, not yet in the counter. */
  uncounted: number;
  /** Reserved in the counter, not admitted yet. */
  lease: number;
  /** When the lease was taken (its month is the one it goes back to). */
  leasedAt: Date;
  lastAdmitAt: number;
}

/** The extra calls a statement reserves for later: 1 % of what is left, at most 100, none near the limit. */
function leaseExtra(quota: WorkspaceQuota | undefined): number {
  if (!quota || quota.limit === null) return 0;
  return Math.min(MAX_LEASE, Math.floor(Math.max(0, quota.limit - quota.used) / 100));
}

export class QuotaGate {
  /** Per workspace: the calls waiting for the next statement, and whether one is in flight. */
  private readonly lanes = new Map<string, { waiting: Waiting[]; busy: boolean }>();
  private readonly quotas = new Map<string, WorkspaceQuota>();
  /** Per workspace: calls let through while the database could not count them, added to the counter once it can. */
  private readonly owed = new Map<string, number>();
  private unavailableSince: number | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log?: FastifyBaseLogger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Admits `count` tool calls from what is known in memory (a plan without a limit, or calls left
   * in the lease) and says true; false when only a statement can answer (admit). Synchronous: the
   * proxy's common case costs no promise and no admission object (issue 39).
   */
  admitFromMemory(workspaceId: string, count: number): boolean {
    const quota = this.quotas.get(workspaceId);
    const now = Date.now();
    if (!quota || now - quota.checkedAt >= POLICY_TTL_MS) return false;
    if (quota.limit === null) {
      quota.uncounted += count;
      this.armSweep();
      return true;
    }
    if (quota.lease < count) return false;
    quota.lease -= count;
    quota.lastAdmitAt = now;
    return true;
  }

  /** Asks to make `count` tool calls in the workspace (all or nothing for this caller). */
  admit(workspaceId: string, count: number): Promise<Admission> {
    const quota = this.quotas.get(workspaceId);
    if (quota && this.admitFromMemory(workspaceId, count)) {
      const limited = quota.limit !== null;
      return Promise.resolve({
        admitted: count,
        used: limited ? quota.used - quota.lease : quota.used + quota.uncounted,
        limit: quota.limit,
        plan: quota.plan,
      });
    }
    return new Promise<Admission>((resolve, reject) => {
      let lane = this.lanes.get(workspaceId);
      if (!lane) this.lanes.set(workspaceId, (lane = { waiting: [], busy: false }));
      lane.waiting.push({ count, resolve, reject });
      if (!lane.busy) void this.drain(workspaceId, lane);
    });
  }

  /** `data` of the -32023 error and the seconds until the quota resets. */
  refusal(admission: Admission): { data: AgentCallLimitData; retryAfterSeconds: number } {
    const now = this.clock();
    const resetsAt = nextMonthStart(now);
    const retryAfterMs = Math.max(0, resetsAt.getTime() - now.getTime());
    return {
      data: { retryAfterMs, limit: admission.limit ?? 0, used: admission.used, resetsAt: resetsAt.toISOString() },
      retryAfterSeconds: Math.ceil(retryAfterMs / 1000),
    };
  }

  /** Counts what was admitted from memory and gives every lease back now (close, tests). */
  async settle(): Promise<void> {
    await this.sweeping;
    this.sweeping = this.sweep(true);
    await this.sweeping;
  }

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.settle();
  }

  private async drain(workspaceId: string, lane: { waiting: Waiting[]; busy: boolean }): Promise<void> {
    lane.busy = true;
    while (lane.waiting.length > 0) {
      const batch = lane.waiting;
      lane.waiting = [];
      const total = batch.reduce((sum, w) => sum + w.count, 0);
      const known = this.quotas.get(workspaceId);
      // A lease too small for the batch is used first; the statement asks for the rest.
      let pool = known && Date.now() - known.checkedAt < POLICY_TTL_MS ? known.lease : 0;
      const returned = known && pool === 0 ? known.lease : 0;
      if (known) known.lease = 0;
      try {
        await this.payOwed(workspaceId);
        if (known && returned > 0) await releaseCalls(this.db, workspaceId, returned, known.leasedAt);
        const need = Math.max(0, total - pool);
        const reading =
          need > 0 ? await admitCalls(this.db, workspaceId, need + leaseExtra(known), this.clock()) : null;
        if (need > 0 && !reading) {
          // A workspace deleted meanwhile: nothing to count against; the proxy answers 404 soon after.
          this.quotas.delete(workspaceId);
          for (const waiting of batch)
            waiting.resolve({ admitted: waiting.count, used: 0, limit: null, plan: 'starter' });
          continue;
        }
        if (reading) pool += reading.granted;
        // Without a reading the lease paid for the batch, so the quota is known.
        const quota = reading ? this.remember(workspaceId, reading) : known;
        if (!quota) throw new Error('Neither a lease nor a reading covers the batch');
        // Admitted in arrival order, each caller whole or not at all; what is left (a refused
        // caller's share, the extra asked for) is the lease later calls are admitted from.
        const outcomes = batch.map((waiting) => {
          const fits = waiting.count <= pool;
          if (fits) pool -= waiting.count;
          return fits;
        });
        quota.lease = pool;
        quota.leasedAt = this.clock();
        quota.lastAdmitAt = Date.now();
        if (pool > 0) this.armSweep();
        const used = quota.used - quota.lease;
        batch.forEach((waiting, i) =>
          waiting.resolve({ admitted: outcomes[i] ? waiting.count : 0, used, limit: quota.limit, plan: quota.plan }),
        );
        this.unavailableSince = null;
      } catch (error) {
        this.letThroughUncounted(workspaceId, batch, total, error);
      }
    }
    lane.busy = false;
    this.lanes.delete(workspaceId);
  }

  /**
   * The database cannot count now (an outage, a failover): the calls go on — an agent must not fail
   * because Toolscope's database is away, any more than its recording stops — and are added to the
   * counter by the first statement that works. A quota can be passed by what an outage lets
   * through, never by more. An account the database last saw at its limit stays refused.
   */
  private letThroughUncounted(workspaceId: string, batch: Waiting[], total: number, error: unknown): void {
    const known = this.quotas.get(workspaceId);
    if (known && known.limit !== null && known.used >= known.limit) {
      for (const waiting of batch)
        waiting.resolve({ admitted: 0, used: known.used, limit: known.limit, plan: known.plan });
      return;
    }
    this.owed.set(workspaceId, (this.owed.get(workspaceId) ?? 0) + total);
    this.noteUnavailable(error);
    for (const waiting of batch) waiting.resolve({ admitted: waiting.count, used: 0, limit: null, plan: 'starter' });
  }

  /** The database cannot count: logged once per outage (a statement that works ends it). */
  private noteUnavailable(error: unknown): void {
    if (this.unavailableSince !== null) return;
    this.unavailableSince = Date.now();
    this.log?.error(
      { err: error },
      'agent-call quota cannot be counted: calls are let through and counted when the database is back',
    );
  }

  private remember(workspaceId: string, reading: CounterReading): WorkspaceQuota {
    let quota = this.quotas.get(workspaceId);
    if (!quota) {
      quota = {
        plan: reading.plan,
        limit: reading.limit,
        used: reading.used,
        checkedAt: Date.now(),
        uncounted: 0,
        lease: 0,
        leasedAt: this.clock(),
        lastAdmitAt: Date.now(),
      };
      this.quotas.set(workspaceId, quota);
    }
    quota.plan = reading.plan;
    quota.limit = reading.limit;
    quota.used = reading.used;
    quota.checkedAt = Date.now();
    return quota;
  }

  private async payOwed(workspaceId: string): Promise<void> {
    const owed = this.owed.get(workspaceId);
    if (!owed) return;
    await countMadeCalls(this.db, workspaceId, owed, this.clock());
    this.owed.delete(workspaceId);
  }

  private armSweep(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => {
      this.sweeping = this.sweeping.then(() => this.sweep(false));
    }, SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Adds the calls admitted from memory to the counter; gives back leases idle for a sweep (all: `everything`). */
  private async sweep(everything: boolean): Promise<void> {
    let pending = false;
    for (const [workspaceId, quota] of this.quotas) {
      try {
        if (quota.uncounted > 0) {
          const count = quota.uncounted;
          quota.uncounted = 0;
          const reading = await countMadeCalls(this.db, workspaceId, count, this.clock()).catch((error: unknown) => {
            quota.uncounted += count;
            throw error;
          });
          if (reading) this.remember(workspaceId, reading);
          else this.quotas.delete(workspaceId);
        }
        if (
          quota.lease > 0 &&
          (everything || Date.now() - quota.lastAdmitAt >= SWEEP_MS) &&
          !this.lanes.get(workspaceId)?.busy
        ) {
          const lease = quota.lease;
          quota.lease = 0;
          await releaseCalls(this.db, workspaceId, lease, quota.leasedAt);
          quota.used -= lease;
        }
      } catch (error) {
        // An outage, as on the admitting path: retried on the next sweep.
        this.noteUnavailable(error);
      }
      if (quota.uncounted > 0 || quota.lease > 0) pending = true;
    }
    // Nothing left to count or give back: no timer keeps running for an idle gate.
    if (!pending && this.sweepTimer && !everything) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = null;
    }
  }
}
