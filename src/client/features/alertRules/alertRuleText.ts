import { ALERT_METRIC_LABELS, type AlertRuleDto, type AlertRuleState } from '../../../contract/alertRules';

// How a rule reads in one line ("Error rate (%) above 5 over 5 min for 2 min · tool charge").
export function describeRule(
  rule: Pick<AlertRuleDto, 'metric' | 'condition' | 'threshold' | 'windowMinutes' | 'forMinutes'>,
): string {
  const window = rule.windowMinutes % 60 === 0 ? `${rule.windowMinutes / 60} h` : `${rule.windowMinutes} min`;
  const held = rule.forMinutes > 0 ? ` for ${rule.forMinutes} min` : '';
  return `${ALERT_METRIC_LABELS[rule.metric].replace(/ \(a client.*\)$/, '')} ${rule.condition} ${rule.threshold} over ${window}${held}`;
}

export function describeScope(rule: Pick<AlertRuleDto, 'scope'>, serverName: (id: string) => string): string {
  const parts: string[] = [];
  if (rule.scope.serverId) parts.push(`server ${serverName(rule.scope.serverId)}`);
  if (rule.scope.tool) parts.push(`tool ${rule.scope.tool}`);
  if (rule.scope.client) parts.push(`client ${rule.scope.client}`);
  if (rule.scope.keyId) parts.push(rule.scope.keyId === 'none' ? 'calls without a key' : 'one platform key');
  return parts.length > 0 ? parts.join(' · ') : 'whole workspace';
}

export const STATE_LABELS: Record<AlertRuleState, { label: string; color: 'default' | 'warning' | 'error' | 'info' }> =
  {
    ok: { label: 'OK', color: 'default' },
    pending: { label: 'Pending', color: 'warning' },
    firing: { label: 'Firing', color: 'error' },
    resolving: { label: 'Resolving', color: 'info' },
  };
