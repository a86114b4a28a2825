import type { Queryable } from '../../db/database';
import { ALERT_PREVIEW_DAYS, type AlertPreviewResult } from '../../../contract/alertRules';
import type { AlertRuleFields } from './store';
import {
  conditionMet,
  evaluationInstant,
  evaluationStepMs,
  inQuietHours,
  MINUTE_MS,
  nextState,
  type RuleEvaluationState,
} from './evaluation';
import { readRuleSeries, windowValue } from './ruleSeries';

// The rule form's preview: the rule replayed over the last 7 days of rollups, at the instants the
// live evaluation uses, through the same state machine — so "would have fired N times" is what
// the monitor would have said. One read of the span; each window is a slice of it.
export async function previewAlertRule(
  db: Queryable,
  workspaceId: string,
  rule: AlertRuleFields,
  nowMs: number,
): Promise<AlertPreviewResult> {
  const stepMs = evaluationStepMs(rule.metric, rule.windowMinutes);
  const toMs = evaluationInstant(nowMs, stepMs);
  const instants = Math.floor((ALERT_PREVIEW_DAYS * 1440 * MINUTE_MS) / stepMs);
  const fromMs = toMs - instants * stepMs;
  const windowMs = rule.windowMinutes * MINUTE_MS;
  const series = await readRuleSeries(db, workspaceId, rule, fromMs + stepMs - windowMs, toMs);
  let state: RuleEvaluationState = { state: 'ok', sinceMs: null };
  const episodes: AlertPreviewResult['episodes'] = [];
  let evaluations = 0;
  for (let at = fromMs + stepMs; at <= toMs; at += stepMs) {
    if (inQuietHours(rule.quietHours, at)) continue;
    evaluations++;
    const met = conditionMet(rule.condition, rule.threshold, windowValue(series, rule.metric, at, windowMs));
    const { next, transition } = nextState(state, met, at, rule.forMinutes);
    state = next;
    if (transition === 'fired') episodes.push({ firedAt: new Date(at).toISOString(), resolvedAt: null });
    if (transition === 'resolved' && episodes.length > 0)
      episodes[episodes.length - 1].resolvedAt = new Date(at).toISOString();
  }
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    evaluations,
    firings: episodes.length,
    episodes,
  };
}
