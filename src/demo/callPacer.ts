// The demo agent's pace against its account's plan (issue 38 item 4). The demo account is on
// Starter (1,000 agent calls a month, and no payment step can move it up), and an episode every
// 5 s spent that in about half an hour: from then on every call, the user's own included, was
// refused and the dashboard turned red. So the agent budgets its calls:
// - a reserve is never touched: the user's own agents still get their calls;
// - a quarter of what is left is spent at the demo's lively pace (the first minutes someone watches);
// - the rest is spread evenly to the end of the billing month, re-measured before every episode
//   (the user's own calls count too), and the agent pauses — and says so — before the reserve.
// A plan without a limit keeps the lively pace. Pure: the caller reads the quota and keeps time.

export interface QuotaReading {
  used: number;
  /** null = unlimited. */
  limit: number | null;
  /** The first instant of the month the count is for (ISO). */
  periodStart: string;
}

export type PaceDecision =
  { kind: 'run'; delayMs: number; note?: string } | { kind: 'pause'; untilMs: number; note?: string };

export interface PacerOptions {
  /** The lively pace: one episode this often. */
  baseEveryMs: number;
  /** The most agent calls one episode makes. */
  callsPerEpisode: number;
  /** Share of the budget spent at the lively pace. */
  liveShare?: number;
}

/** Calls left for the user's own agents: 10 % of the plan, at least 100. */
export function reserveOf(limit: number): number {
  return Math.max(100, Math.ceil(limit * 0.1));
}

function periodEndMs(periodStart: string): number {
  const start = new Date(periodStart);
  return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
}

const count = (n: number) => n.toLocaleString('en-US');
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
function every(ms: number): string {
  if (ms < 90_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 90 * 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

export class CallPacer {
  private period: string | undefined;
  /** Until the count reaches this, the lively pace. */
  private liveUntilUsed = 0;
  private phase: 'live' | 'spread' | 'paused' | undefined;

  constructor(private readonly options: PacerOptions) {}

  decide(quota: QuotaReading, nowMs: number): PaceDecision {
    const { baseEveryMs, callsPerEpisode, liveShare = 0.25 } = this.options;
    if (quota.limit === null) return { kind: 'run', delayMs: baseEveryMs };
    const reserve = reserveOf(quota.limit);
    const budget = quota.limit - reserve - quota.used;
    const endMs = periodEndMs(quota.periodStart);
    if (this.period !== quota.periodStart) {
      // A new month (or the first reading): a fresh lively share of what this month leaves.
      this.period = quota.periodStart;
      this.liveUntilUsed = quota.used + Math.floor(Math.max(0, budget) * liveShare);
      this.phase = undefined;
    }
    if (budget < callsPerEpisode) {
      const note =
        this.phase === 'paused'
          ? undefined
          : `The agent pauses: ${count(quota.used)} of the plan's ${count(quota.limit)} agent calls this month are used, and the last ${count(reserve)} are left for your own agents. It resumes when the month's count resets (${when(endMs)}).`;
      this.phase = 'paused';
      return { kind: 'pause', untilMs: endMs, note };
    }
    if (quota.used < this.liveUntilUsed) {
      this.phase = 'live';
      return { kind: 'run', delayMs: baseEveryMs };
    }
    const delayMs = Math.max(baseEveryMs, ((endMs - nowMs) * callsPerEpisode) / budget);
    const note =
      this.phase === 'spread'
        ? undefined
        : `The agent slows down to last the month on the plan's ${count(quota.limit)} agent calls: about one task every ${every(delayMs)} until ${when(endMs)}, ${count(reserve)} calls kept for your own agents.`;
    this.phase = 'spread';
    return { kind: 'run', delayMs, note };
  }
}
