import { CallPacer, reserveOf, type PaceDecision } from '../../../src/demo/callPacer';
import { MOST_CALLS_PER_EPISODE } from '../../../src/demo/agentPlans';

// Issue 38 item 4: the demo's agent over simulated months on Starter (1,000 agent calls a month).
// Simulated time, so no test waits: each step asks the pacer, advances the clock by what it says
// (at the fastest the ±30 % jitter allows) and counts an episode's calls.
const BASE_MS = 5_000;
const STARTER = 1_000;
const DAY = 24 * 60 * 60_000;

interface Run {
  usedAtEnd: Map<string, number>;
  /** When each episode ran. */
  episodes: number[];
  notes: string[];
  firstPauseAt?: number;
}

function simulate({
  fromMs,
  untilMs,
  limit,
  startUsed = 0,
  userCallsPerDay = 0,
}: {
  fromMs: number;
  untilMs: number;
  limit: number | null;
  startUsed?: number;
  userCallsPerDay?: number;
}): Run {
  const pacer = new CallPacer({ baseEveryMs: BASE_MS, callsPerEpisode: MOST_CALLS_PER_EPISODE });
  const run: Run = { usedAtEnd: new Map(), episodes: [], notes: [] };
  let now = fromMs;
  let period = '';
  let used = startUsed;
  let userCarry = 0;
  while (now < untilMs) {
    const start = new Date(now);
    const thisPeriod = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)).toISOString();
    if (thisPeriod !== period) {
      if (period) used = 0;
      period = thisPeriod;
    }
    const decision: PaceDecision = pacer.decide({ used, limit, periodStart: period }, now);
    if (decision.note) run.notes.push(decision.note);
    const before = now;
    if (decision.kind === 'pause') {
      run.firstPauseAt ??= now;
      now = Math.max(now + 1_000, Math.min(decision.untilMs, now + 60 * 60_000));
    } else {
      now += decision.delayMs * 0.7;
      if (new Date(now).getUTCMonth() === start.getUTCMonth()) {
        used += MOST_CALLS_PER_EPISODE;
        run.episodes.push(now);
      }
    }
    // The user's own agent calls meanwhile (they count against the same plan).
    userCarry += ((now - before) / DAY) * userCallsPerDay;
    const userCalls = Math.floor(userCarry);
    userCarry -= userCalls;
    if (limit !== null) used = Math.min(limit, used + userCalls);
    run.usedAtEnd.set(period, used);
  }
  return run;
}

describe('the demo agent paces itself to its plan', () => {
  const november = Date.UTC(2026, 10, 1);
  const december = Date.UTC(2026, 11, 1);

  it('never reaches the limit in a month on Starter, and keeps running to its last day', () => {
    // The demo starts on the 3rd, after its opening burst (about 60 calls).
    const run = simulate({ fromMs: november + 2 * DAY, untilMs: december, limit: STARTER, startUsed: 60 });
    const used = run.usedAtEnd.get(new Date(november).toISOString())!;
    expect(used).toBeLessThanOrEqual(STARTER - reserveOf(STARTER));
    // Lively first: the first quarter of the budget goes at the demo's pace, within the first hour.
    const firstHour = run.episodes.filter((at) => at < november + 2 * DAY + 60 * 60_000).length;
    expect(firstHour).toBeGreaterThan(30);
    // Then spread to the end of the month: still running in its last two days.
    expect(run.episodes.some((at) => at > december - 2 * DAY)).toBe(true);
    // Spread out, not bunched: no day of the spread phase holds more than a tenth of the episodes.
    const byDay = new Map<number, number>();
    for (const at of run.episodes.filter((t) => t > november + 3 * DAY))
      byDay.set(Math.floor(at / DAY), (byDay.get(Math.floor(at / DAY)) ?? 0) + 1);
    expect(Math.max(...byDay.values())).toBeLessThan(run.episodes.length / 10);
    expect(run.notes[0]).toContain('The agent slows down to last the month');
    // Even with every wait at the short end of the jitter, any pause comes in the month's last days.
    if (run.firstPauseAt !== undefined) expect(run.firstPauseAt).toBeGreaterThan(december - 2 * DAY);
  });

  it('starts over when the month resets, and stays within the plan every month', () => {
    const run = simulate({ fromMs: november, untilMs: Date.UTC(2027, 1, 1), limit: STARTER });
    expect([...run.usedAtEnd.keys()]).toHaveLength(3);
    for (const used of run.usedAtEnd.values()) {
      expect(used).toBeLessThanOrEqual(STARTER - reserveOf(STARTER));
      expect(used).toBeGreaterThan(STARTER / 2);
    }
  });

  it("pauses before the limit when the user's own calls eat the budget, says so, and leaves them their reserve", () => {
    const run = simulate({
      fromMs: november,
      untilMs: december,
      limit: STARTER,
      userCallsPerDay: 60,
    });
    expect(run.firstPauseAt).toBeDefined();
    expect(run.notes).toContainEqual(
      expect.stringMatching(/^The agent pauses: .* the last 100 are left for your own agents\. It resumes when/),
    );
    // The agent's own calls stopped at the reserve: what went beyond it was the user's.
    const agentCalls = run.episodes.length * MOST_CALLS_PER_EPISODE;
    expect(agentCalls).toBeLessThanOrEqual(STARTER - reserveOf(STARTER));
  });

  it('keeps the lively pace on a plan without a limit', () => {
    const pacer = new CallPacer({ baseEveryMs: BASE_MS, callsPerEpisode: MOST_CALLS_PER_EPISODE });
    const decision = pacer.decide(
      { used: 5_000_000, limit: null, periodStart: new Date(november).toISOString() },
      november,
    );
    expect(decision).toEqual({ kind: 'run', delayMs: BASE_MS });
  });
});
