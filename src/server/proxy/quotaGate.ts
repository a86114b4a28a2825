import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/database';
import { PLANS, planById, type PlanId } from '../../contract/plans';
import { monthPeriod, nextMonthStart } from '../modules/billing/agentCallQuota';
import type { AgentCallLimitData } from '../../contract/agentAccess';

// The monthly agent-call quota of SPEC §9, enforced at the proxy for `tools/call` from one counter
// per account and calendar month (UTC) in the shared database (agent_call_counters). docs/access.md.
//
// Correctness: one statement admits calls — it reads the account's plan, and adds the calls to the
// counter only up to the plan's limit (`greatest(used, least(used + n, limit))`), returning how many
// it admitted. PostgreSQL's row lock on the counter serialises these statements across every
// instance, so the count can never pass the limit, however many instances and clients race.
// Cost: calls of one account that arrive while its statement is in flight wait and go together in
// the next one (n > 1), so the database sees at most one statement in flight per account per
// instance, whatever the call rate.
export interface Admission {
  /** How many of the calls asked for were admitted (the first ones). */
  admitted: number;
  used: number;
  limit: number | null;
  plan: PlanId;
}

/** The limit of each plan as SQL (kept in step with contract/plans.ts). */
const LIMIT_OF_PLAN = `case coalesce(s.plan, 'starter') ${PLANS.map((p) => `when '${p.id}' then ${p.agentCallsPerMonth ?? 'null'}`).join(' ')} else ${planById('starter').agentCallsPerMonth} end`;

// The first call of an account in a month starts its counter from the calls already recorded that
// month (usage before this instance counted, or before the counter existed).
const ADMIT_SQL = `insert into agent_call_counters as c (owner_id, period, used, lim, plan, last_grant, updated_at)
  select w.owner_id, $2::date,
         least(coalesce(r.recorded, 0) + $3::int, greatest(coalesce(r.recorded, 0), coalesce(${LIMIT_OF_PLAN}, 2147483647))),
         ${LIMIT_OF_PLAN}, coalesce(s.plan, 'starter'),
         least(coalesce(r.recorded, 0) + $3::int, greatest(coalesce(r.recorded, 0), coalesce(${LIMIT_OF_PLAN}, 2147483647))) - coalesce(r.recorded, 0),
         now()
    from workspaces w
    left join subscriptions s on s.user_id = w.owner_id
    left join lateral (
      select sum(u.calls)::int as recorded from usage_minutes u join workspaces o on o.id = u.workspace_id
       where o.owner_id = w.owner_id and u.bucket >= $2::date::timestamp at time zone 'utc'
         and not exists (select 1 from agent_call_counters e where e.owner_id = w.owner_id and e.period = $2::date)
    ) r on true
   where w.id = $1
  on conflict (owner_id, period) do update set
    used = greatest(c.used, least(c.used + $3::int, coalesce(excluded.lim, 2147483647))),
    last_grant = greatest(c.used, least(c.used + $3::int, coalesce(excluded.lim, 2147483647))) - c.used,
    lim = excluded.lim, plan = excluded.plan, updated_at = now()
  returning used, lim, plan, last_grant`;


interface Waiting {
  count: number;
  resolve(admission: Admission): void;
  reject(error: unknown): void;
}

export class QuotaGate {
  /** Per workspace: the calls waiting for the next statement, and whether one is in flight. */
  private readonly lanes = new Map<string, { waiting: Waiting[]; busy: boolean }>();
  /** Per workspace: calls let through while the database could not count them, added to the counter once it can. */
  private readonly owed = new Map<string, number>();
  private unavailableSince: number | null = null;
  /** The last answer the database gave per workspace: an account it saw at its limit stays refused during an outage. */
  private readonly lastKnown = new Map<string, Admission>();

  constructor(
    private readonly db: Database,
    private readonly log?: FastifyBaseLogger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Asks to make `count` tool calls in the workspace (all or nothing for this caller). */
  admit(workspaceId: string, count: number): Promise<Admission> {
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

  private async drain(workspaceId: string, lane: { waiting: Waiting[]; busy: boolean }): Promise<void> {
    lane.busy = true;
    while (lane.waiting.length > 0) {
      const batch = lane.waiting;
      lane.waiting = [];
      const total = batch.reduce((sum, w) => sum + w.count, 0);
      try {
        await this.payOwed(workspaceId);
        const granted = await admitCalls(this.db, workspaceId, total, this.clock());
        // Admitted in arrival order, each caller whole or not at all; what a refused caller would
        // have used is handed back (a later, smaller caller of the batch may still fit).
        let left = granted.admitted;
        const outcomes = batch.map((waiting) => {
          const fits = waiting.count <= left;
          if (fits) left -= waiting.count;
          return fits;
        });
        if (left > 0) await releaseCalls(this.db, workspaceId, left, this.clock());
        const used = granted.used - left;
        batch.forEach((waiting, i) => waiting.resolve({ ...granted, used, admitted: outcomes[i] ? waiting.count : 0 }));
        this.lastKnown.set(workspaceId, { ...granted, used });
        this.unavailableSince = null;
      } catch (error) {
        // The database cannot count now (an outage, a failover): the calls go on — an agent must not
        // fail because Toolscope's database is away, any more than its recording stops — and are
        // added to the counter by the first statement that works. A quota can be passed by what
        // an outage lets through, never by more.
        // An account the database last saw at its limit stays refused: the outage opens no quota.
        const known = this.lastKnown.get(workspaceId);
        if (known && known.limit !== null && known.used >= known.limit) {
          for (const waiting of batch) waiting.resolve({ ...known, admitted: 0 });
          continue;
        }
        this.owed.set(workspaceId, (this.owed.get(workspaceId) ?? 0) + total);
        if (this.unavailableSince === null) {
          this.unavailableSince = Date.now();
          this.log?.error({ err: error }, 'agent-call quota cannot be counted: calls are let through and counted when the database is back');
        }
        for (const waiting of batch) waiting.resolve({ admitted: waiting.count, used: 0, limit: null, plan: 'starter' });
      }
    }
    lane.busy = false;
    this.lanes.delete(workspaceId);
  }

  private async payOwed(workspaceId: string): Promise<void> {
    const owed = this.owed.get(workspaceId);
    if (!owed) return;
    await releaseCalls(this.db, workspaceId, -owed, this.clock());
    this.owed.delete(workspaceId);
  }
}

/** One statement: admits up to `count` calls for the workspace's account this month. */
export async function admitCalls(db: Queryable, workspaceId: string, count: number, now: Date): Promise<Admission> {
  const rows = await db.query<{ used: number; lim: number | null; plan: PlanId; last_grant: number }>(ADMIT_SQL, [workspaceId, monthPeriod(now), count]);
  const row = rows[0];
  // A workspace deleted meanwhile: nothing to count against; the proxy answers 404 soon after.
  if (!row) return { admitted: count, used: 0, limit: null, plan: 'starter' };
  return { admitted: row.last_grant, used: row.used, limit: row.lim, plan: row.plan };
}

/** Gives back calls admitted but not made (a batch caller that did not fit whole); a negative count adds calls made uncounted. */
async function releaseCalls(db: Queryable, workspaceId: string, count: number, now: Date): Promise<void> {
  await db.query(
    `update agent_call_counters c set used = greatest(0, c.used - $3::int), updated_at = now()
       from workspaces w where w.id = $1 and c.owner_id = w.owner_id and c.period = $2::date`,
    [workspaceId, monthPeriod(now), count],
  );
}

