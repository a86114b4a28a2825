import type { FastifyInstance } from 'fastify';
import {
  conditionMet,
  evaluationInstant,
  evaluationStepMs,
  inQuietHours,
  MINUTE_MS,
  nextState,
  type Transition,
} from './evaluation';
import { readRuleSeries, windowValue } from './ruleSeries';
import { enabledAlertRules, timeMs, type AlertRuleRow } from './store';
import { raiseAlertRuleNotification } from './alertNotifications';

// Evaluates every enabled alert rule once a minute (docs/notifications.md "Alert rules"). The
// value is read outside any transaction; the state change takes the rule's row lock and is
// skipped when that instant was already evaluated (by this or another instance), so each
// transition — and its notification — happens once. Tests drive `evaluateAll(atMs)` with their
// own clock instead of the timer.
export class AlertRuleMonitor {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly app: FastifyInstance,
    private readonly clock: () => number = Date.now,
    private readonly intervalMs = MINUTE_MS,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.evaluateDue(), this.intervalMs);
    this.timer.unref();
  }

  /**
   * One timed run, after the one before it. A run that fails — the rules cannot be read while the
   * database is away — is logged and the next minute tries again: a rejection left unhandled here
   * ended the whole process (the chaos journey's instance died of it mid-outage) and left every
   * later run chained behind a rejected one.
   */
  evaluateDue(): Promise<void> {
    this.running = this.running
      .then(() => this.evaluateAll(this.clock()))
      .catch((error: unknown) =>
        this.app.log.error({ err: error }, 'alert rules could not be evaluated: tried again next minute'),
      );
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async evaluateAll(nowMs: number): Promise<void> {
    for (const rule of await enabledAlertRules(this.app.db)) {
      try {
        await this.evaluateRule(rule, nowMs);
      } catch (error) {
        this.app.log.error({ err: error, ruleId: rule.id }, 'alert rule evaluation failed');
      }
    }
  }

  private async evaluateRule(rule: AlertRuleRow, nowMs: number): Promise<void> {
    const atMs = evaluationInstant(nowMs, evaluationStepMs(rule.metric, rule.window_minutes));
    const last = timeMs(rule.last_evaluated_at);
    if ((last !== null && last >= atMs) || inQuietHours(rule.quiet_hours, atMs)) return;
    const windowMs = rule.window_minutes * MINUTE_MS;
    const series = await readRuleSeries(this.app.db, rule.workspace_id, rule, atMs - windowMs, atMs);
    const value = windowValue(series, rule.metric, atMs, windowMs);
    const met = conditionMet(rule.condition, rule.threshold, value);

    const outcome = await this.app.db.transaction(async (tx) => {
      const [locked] = (await tx.query<AlertRuleRow>(
        'select state, state_since, last_evaluated_at, enabled from alert_rules where id = $1 for update',
        [rule.id],
      )) as (AlertRuleRow | undefined)[];
      const lockedLast = locked ? timeMs(locked.last_evaluated_at) : null;
      if (!locked || !locked.enabled || (lockedLast !== null && lockedLast >= atMs)) return null;
      const { next, transition } = nextState(
        { state: locked.state, sinceMs: timeMs(locked.state_since) },
        met,
        atMs,
        rule.for_minutes,
      );
      await tx.query(
        'update alert_rules set state = $2, state_since = $3, last_value = $4, last_evaluated_at = $5 where id = $1',
        [rule.id, next.state, next.sinceMs === null ? null : new Date(next.sinceMs), value, new Date(atMs)],
      );
      let firingId: string | undefined;
      if (transition === 'fired') {
        const [row] = await tx.query<{ id: string }>(
          'insert into alert_rule_firings (rule_id, workspace_id, fired_at, value) values ($1, $2, $3, $4) returning id',
          [rule.id, rule.workspace_id, new Date(atMs), value],
        );
        firingId = row.id;
      } else if (transition === 'resolved') {
        const rows = await tx.query<{ id: string }>(
          'update alert_rule_firings set resolved_at = $2 where rule_id = $1 and resolved_at is null returning id',
          [rule.id, new Date(atMs)],
        );
        firingId = rows[0]?.id;
      }
      return { transition, firingId };
    });
    if (!outcome?.transition || !outcome.firingId) return;
    const status: Exclude<Transition, null> = outcome.transition;
    await raiseAlertRuleNotification(this.app, rule, status === 'fired' ? 'firing' : 'resolved', {
      id: outcome.firingId,
      value,
      atMs,
    });
  }
}
