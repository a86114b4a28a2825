import type { Queryable } from '../../db/database';
import type {
  AlertCondition,
  AlertFiringDto,
  AlertMetric,
  AlertRuleDto,
  AlertRuleState,
  AlertScope,
  CreateAlertRuleBody,
  QuietHours,
} from '../../../contract/alertRules';
import type { NotificationSeverity } from '../../../contract/notifications';

// Queries of alert rules and their firings (m030). Every read and write of the API is scoped by
// workspace; the monitor reads every enabled rule.
export interface AlertRuleRow {
  id: string;
  workspace_id: string;
  name: string;
  metric: AlertMetric;
  scope: AlertScope;
  condition: AlertCondition;
  threshold: number;
  window_minutes: number;
  for_minutes: number;
  severity: Exclude<NotificationSeverity, 'success'>;
  quiet_hours: QuietHours | null;
  notify_integrations: boolean;
  enabled: boolean;
  state: AlertRuleState;
  state_since: Date | string | null;
  last_value: number | null;
  last_evaluated_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = `id, workspace_id, name, metric, scope, condition, threshold, window_minutes, for_minutes, severity,
  quiet_hours, notify_integrations, enabled, state, state_since, last_value, last_evaluated_at, created_at, updated_at`;

const iso = (value: Date | string) => new Date(value).toISOString();
export const timeMs = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());

export function toAlertRuleDto(row: AlertRuleRow): AlertRuleDto {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    metric: row.metric,
    scope: row.scope,
    condition: row.condition,
    threshold: row.threshold,
    windowMinutes: row.window_minutes,
    forMinutes: row.for_minutes,
    severity: row.severity,
    quietHours: row.quiet_hours,
    notifyIntegrations: row.notify_integrations,
    enabled: row.enabled,
    state: row.state,
    stateSince: row.state_since === null ? null : iso(row.state_since),
    lastValue: row.last_value,
    lastEvaluatedAt: row.last_evaluated_at === null ? null : iso(row.last_evaluated_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export type AlertRuleFields = Required<Omit<CreateAlertRuleBody, 'scope' | 'quietHours'>> & {
  scope: AlertScope;
  quietHours: QuietHours | null;
};

export function listAlertRules(db: Queryable, workspaceId: string): Promise<AlertRuleRow[]> {
  return db.query<AlertRuleRow>(`select ${COLUMNS} from alert_rules where workspace_id = $1 order by created_at, id`, [
    workspaceId,
  ]);
}

export async function findAlertRule(
  db: Queryable,
  workspaceId: string,
  ruleId: string,
): Promise<AlertRuleRow | undefined> {
  const rows = await db.query<AlertRuleRow>(`select ${COLUMNS} from alert_rules where workspace_id = $1 and id = $2`, [
    workspaceId,
    ruleId,
  ]);
  return rows[0];
}

export function enabledAlertRules(db: Queryable): Promise<AlertRuleRow[]> {
  return db.query<AlertRuleRow>(`select ${COLUMNS} from alert_rules where enabled order by id`);
}

export async function countAlertRules(db: Queryable, workspaceId: string): Promise<number> {
  const rows = await db.query<{ n: number }>('select count(*)::int as n from alert_rules where workspace_id = $1', [
    workspaceId,
  ]);
  return rows[0].n;
}

const FIELD_COLUMNS: [keyof AlertRuleFields, string, (v: unknown) => unknown][] = [
  ['name', 'name', (v) => v],
  ['metric', 'metric', (v) => v],
  ['scope', 'scope', (v) => JSON.stringify(v)],
  ['condition', 'condition', (v) => v],
  ['threshold', 'threshold', (v) => v],
  ['windowMinutes', 'window_minutes', (v) => v],
  ['forMinutes', 'for_minutes', (v) => v],
  ['severity', 'severity', (v) => v],
  ['quietHours', 'quiet_hours', (v) => (v === null ? null : JSON.stringify(v))],
  ['notifyIntegrations', 'notify_integrations', (v) => v],
  ['enabled', 'enabled', (v) => v],
];

export async function insertAlertRule(
  db: Queryable,
  workspaceId: string,
  fields: AlertRuleFields,
): Promise<AlertRuleRow> {
  const values = FIELD_COLUMNS.map(([key, , encode]) => encode(fields[key]));
  const rows = await db.query<AlertRuleRow>(
    `insert into alert_rules (workspace_id, ${FIELD_COLUMNS.map(([, column]) => column).join(', ')})
     values ($1, ${FIELD_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}) returning ${COLUMNS}`,
    [workspaceId, ...values],
  );
  return rows[0];
}

/**
 * Changes the given fields. A change to what is measured or how starts the rule over (state ok):
 * an episode judged by the old condition says nothing about the new one.
 */
export async function updateAlertRule(
  db: Queryable,
  workspaceId: string,
  ruleId: string,
  fields: Partial<AlertRuleFields>,
): Promise<AlertRuleRow | undefined> {
  const set: string[] = [];
  const params: unknown[] = [workspaceId, ruleId];
  for (const [key, column, encode] of FIELD_COLUMNS) {
    if (fields[key] === undefined) continue;
    params.push(encode(fields[key]));
    set.push(`${column} = $${params.length}`);
  }
  const restart = (['metric', 'scope', 'condition', 'threshold', 'windowMinutes', 'forMinutes'] as const).some(
    (key) => fields[key] !== undefined,
  );
  if (restart) set.push(`state = 'ok', state_since = null`);
  set.push('updated_at = now()');
  const rows = await db.query<AlertRuleRow>(
    `update alert_rules set ${set.join(', ')} where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
    params,
  );
  if (rows[0] && restart)
    await db.query('update alert_rule_firings set resolved_at = now() where rule_id = $1 and resolved_at is null', [
      ruleId,
    ]);
  return rows[0];
}

export async function deleteAlertRule(db: Queryable, workspaceId: string, ruleId: string): Promise<boolean> {
  const rows = await db.query('delete from alert_rules where workspace_id = $1 and id = $2 returning id', [
    workspaceId,
    ruleId,
  ]);
  return rows.length > 0;
}

export async function listFirings(db: Queryable, ruleId: string, limit = 100): Promise<AlertFiringDto[]> {
  const rows = await db.query<{
    id: string;
    rule_id: string;
    fired_at: Date | string;
    resolved_at: Date | string | null;
    value: number | null;
  }>(
    'select id, rule_id, fired_at, resolved_at, value from alert_rule_firings where rule_id = $1 order by fired_at desc limit $2',
    [ruleId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    ruleId: r.rule_id,
    firedAt: iso(r.fired_at),
    resolvedAt: r.resolved_at === null ? null : iso(r.resolved_at),
    value: r.value,
  }));
}
