import type { AlertCondition, AlertMetric, AlertRuleState, QuietHours } from '../../../contract/alertRules';

// The pure half of alert rules: whether a value meets the condition, quiet hours, the evaluation
// instants, and the state machine that gives one "fired" and one "resolved" per episode. The
// monitor (live) and the preview (a replay of 7 days) both run exactly this, over the same
// instants, so the preview counts what the live evaluation would have done.
export const MINUTE_MS = 60_000;

export interface RuleEvaluationState {
  state: AlertRuleState;
  /** When the current state began. */
  sinceMs: number | null;
}

export type Transition = 'fired' | 'resolved' | null;

/** No data (an error rate or a percentile of no calls) never meets a condition. */
export function conditionMet(condition: AlertCondition, threshold: number, value: number | null): boolean {
  if (value === null) return false;
  return condition === 'above' ? value > threshold : value < threshold;
}

/**
 * Hysteresis by time: the condition must hold for `forMinutes` before the rule fires (pending),
 * and be clear for `forMinutes` before it resolves (resolving); a condition that flaps within
 * that time changes nothing anyone is told. forMinutes 0 fires and resolves on one evaluation.
 */
export function nextState(
  current: RuleEvaluationState,
  met: boolean,
  atMs: number,
  forMinutes: number,
): { next: RuleEvaluationState; transition: Transition } {
  const held = (since: number | null) => since !== null && atMs - since >= forMinutes * MINUTE_MS;
  switch (current.state) {
    case 'ok':
      if (!met) return { next: current, transition: null };
      if (forMinutes === 0) return { next: { state: 'firing', sinceMs: atMs }, transition: 'fired' };
      return { next: { state: 'pending', sinceMs: atMs }, transition: null };
    case 'pending':
      if (!met) return { next: { state: 'ok', sinceMs: atMs }, transition: null };
      if (held(current.sinceMs)) return { next: { state: 'firing', sinceMs: atMs }, transition: 'fired' };
      return { next: current, transition: null };
    case 'firing':
      if (met) return { next: current, transition: null };
      if (forMinutes === 0) return { next: { state: 'ok', sinceMs: atMs }, transition: 'resolved' };
      return { next: { state: 'resolving', sinceMs: atMs }, transition: null };
    case 'resolving':
      if (met) return { next: { state: 'firing', sinceMs: current.sinceMs }, transition: null };
      if (held(current.sinceMs)) return { next: { state: 'ok', sinceMs: atMs }, transition: 'resolved' };
      return { next: current, transition: null };
  }
}

function minutesOfDay(text: string): number {
  const [h, m] = text.split(':').map(Number);
  return h * 60 + m;
}

/** During quiet hours a rule is not evaluated: its state (and any episode) waits unchanged. */
export function inQuietHours(quiet: QuietHours | null, atMs: number): boolean {
  if (!quiet) return false;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: quiet.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(atMs));
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  const now = hour * 60 + minute;
  const start = minutesOfDay(quiet.start);
  const end = minutesOfDay(quiet.end);
  if (start === end) return false;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

const LATENCY_METRICS = new Set<AlertMetric>(['latency_p50', 'latency_p95', 'latency_p99']);

/**
 * Minutes between evaluations: every minute, except percentiles over long windows (merging a
 * day of minute sketches every minute for 7 days of preview would cost more than it tells):
 * there, 1/30 of the window.
 */
export function evaluationStepMs(metric: AlertMetric, windowMinutes: number): number {
  if (!LATENCY_METRICS.has(metric) || windowMinutes <= 30) return MINUTE_MS;
  return Math.ceil(windowMinutes / 30) * MINUTE_MS;
}

/** The latest evaluation instant at or before `nowMs` (windows end on whole minutes: complete ones). */
export function evaluationInstant(nowMs: number, stepMs: number): number {
  return Math.floor(nowMs / stepMs) * stepMs;
}

export function isLatencyMetric(metric: AlertMetric): boolean {
  return LATENCY_METRICS.has(metric);
}
