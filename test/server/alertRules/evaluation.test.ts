import {
  conditionMet,
  evaluationInstant,
  evaluationStepMs,
  inQuietHours,
  nextState,
  type RuleEvaluationState,
  type Transition,
} from '../../../src/server/modules/alertRules/evaluation';
import { windowValue, type RuleSeries } from '../../../src/server/modules/alertRules/ruleSeries';

const MINUTE = 60_000;

/** Runs the state machine over a series of met / not met, one per minute; returns the transitions. */
function run(series: boolean[], forMinutes: number): Transition[] {
  let state: RuleEvaluationState = { state: 'ok', sinceMs: null };
  const transitions: Transition[] = [];
  series.forEach((met, minute) => {
    const { next, transition } = nextState(state, met, minute * MINUTE, forMinutes);
    state = next;
    if (transition) transitions.push(transition);
  });
  return transitions;
}

describe('alert rule evaluation', () => {
  it('fires once after the for-duration and resolves once after as long clear', () => {
    const series = [false, true, true, true, true, true, false, false, false, false];
    expect(run(series, 2)).toEqual(['fired', 'resolved']);
  });

  it('does not storm on a flapping series: a condition that flips every minute never fires', () => {
    const flapping = Array.from({ length: 120 }, (_, minute) => minute % 2 === 0);
    expect(run(flapping, 2)).toEqual([]);
  });

  it('once firing, a flapping recovery does not resolve and re-fire: one episode', () => {
    const series = [
      ...Array(5).fill(true),
      ...Array.from({ length: 40 }, (_, i) => i % 2 === 0),
      ...Array(5).fill(false),
    ];
    expect(run(series, 2)).toEqual(['fired', 'resolved']);
  });

  it('with no for-duration, fires and resolves on the evaluation itself', () => {
    expect(run([true, true, false, true], 0)).toEqual(['fired', 'resolved', 'fired']);
  });

  it('treats no value as not met, in both directions', () => {
    expect(conditionMet('above', 5, null)).toBe(false);
    expect(conditionMet('below', 5, null)).toBe(false);
    expect(conditionMet('below', 1, 0)).toBe(true);
    expect(conditionMet('above', 5, 5)).toBe(false);
  });

  it('knows quiet hours across midnight and in the rule time zone', () => {
    const quiet = { start: '18:00', end: '08:00', timeZone: 'Europe/Paris' };
    expect(inQuietHours(quiet, Date.parse('2026-06-01T20:00:00Z'))).toBe(true); // 22:00 in Paris
    expect(inQuietHours(quiet, Date.parse('2026-06-01T05:30:00Z'))).toBe(true); // 07:30
    expect(inQuietHours(quiet, Date.parse('2026-06-01T06:30:00Z'))).toBe(false); // 08:30
    expect(inQuietHours(null, 0)).toBe(false);
  });

  it('reads windows from minute sums: rates, counts, and new client × tool pairs', () => {
    const series: RuleSeries = {
      minutes: new Map([
        [0, { calls: 10, errors: 1, sessions: 1, tokens: 100, cost: 0.5 }],
        [MINUTE, { calls: 10, errors: 3, sessions: 0, tokens: 50, cost: 0.25 }],
      ]),
      sketches: new Map(),
      firstSeen: [0, 5 * MINUTE],
    };
    expect(windowValue(series, 'error_rate', 2 * MINUTE, 2 * MINUTE)).toBe(20);
    expect(windowValue(series, 'calls', 2 * MINUTE, MINUTE)).toBe(10);
    expect(windowValue(series, 'error_rate', 10 * MINUTE, MINUTE)).toBeNull();
    expect(windowValue(series, 'cost', 2 * MINUTE, 2 * MINUTE)).toBe(0.75);
    expect(windowValue(series, 'new_tool_client', 6 * MINUTE, 2 * MINUTE)).toBe(1);
    expect(windowValue(series, 'latency_p95', 2 * MINUTE, 2 * MINUTE)).toBeNull();
  });

  it('evaluates percentiles over long windows at a coarser step, on aligned instants', () => {
    expect(evaluationStepMs('error_rate', 1440)).toBe(MINUTE);
    expect(evaluationStepMs('latency_p95', 10)).toBe(MINUTE);
    expect(evaluationStepMs('latency_p95', 1440)).toBe(48 * MINUTE);
    expect(evaluationInstant(10 * MINUTE + 59_000, MINUTE)).toBe(10 * MINUTE);
  });
});
