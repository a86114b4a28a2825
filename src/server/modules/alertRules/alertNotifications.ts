import type { FastifyInstance } from 'fastify';
import { ALERT_METRIC_LABELS } from '../../../contract/alertRules';
import type { AlertRuleRow } from './store';

// The two notifications of an episode (type alert_rule): "firing" at the rule's severity and
// "resolved" as a success. Their metadata names the rule, so webhook, Slack and PagerDuty payloads
// do (PagerDuty's dedup key is the rule's: the resolved event resolves the incident).
function describeScope(rule: AlertRuleRow): string {
  const parts: string[] = [];
  if (rule.scope.tool) parts.push(`tool ${rule.scope.tool}`);
  if (rule.scope.client) parts.push(`client ${rule.scope.client}`);
  if (rule.scope.keyId) parts.push(rule.scope.keyId === 'none' ? 'calls without a key' : 'one platform key');
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

export async function raiseAlertRuleNotification(
  app: FastifyInstance,
  rule: AlertRuleRow,
  status: 'firing' | 'resolved',
  firing: { id: string; value: number | null; atMs: number },
): Promise<void> {
  const label = ALERT_METRIC_LABELS[rule.metric].replace(/ \(.*\)$/, '');
  const value = firing.value === null ? 'no value' : String(firing.value);
  const window =
    rule.window_minutes >= 60 && rule.window_minutes % 60 === 0
      ? `${rule.window_minutes / 60} h`
      : `${rule.window_minutes} min`;
  const message =
    status === 'firing'
      ? `${label}${describeScope(rule)} is ${value} over the last ${window}, ${rule.condition} the threshold of ${rule.threshold}` +
        (rule.for_minutes > 0 ? ` for ${rule.for_minutes} min.` : '.')
      : `${label}${describeScope(rule)} is back ${rule.condition === 'above' ? 'at or below' : 'at or above'} ${rule.threshold} (now ${value}).`;
  try {
    await app.notifications.raise({
      workspaceId: rule.workspace_id,
      type: 'alert_rule',
      severity: status === 'firing' ? rule.severity : 'success',
      title: status === 'firing' ? `Alert firing: ${rule.name}` : `Alert resolved: ${rule.name}`,
      message,
      actionUrl: `/alert-rules?ruleId=${encodeURIComponent(rule.id)}`,
      metadata: {
        ruleId: rule.id,
        ruleName: rule.name,
        status,
        firingId: firing.id,
        metric: rule.metric,
        condition: rule.condition,
        threshold: rule.threshold,
        value: firing.value,
        windowMinutes: rule.window_minutes,
        scope: rule.scope,
        ...(rule.scope.serverId ? { serverId: rule.scope.serverId } : {}),
        at: new Date(firing.atMs).toISOString(),
        toIntegrations: rule.notify_integrations,
      },
      groupKey: `alert_rule:${firing.id}:${status}`,
      repeat: 'once',
    });
  } catch (error) {
    app.log.error({ err: error, ruleId: rule.id }, 'could not raise the alert rule notification');
  }
}
