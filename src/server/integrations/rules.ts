import { NOTIFICATION_SEVERITIES, type NotificationSeverity } from '../../contract/notifications';
import type { IntegrationKind, IntegrationRules } from '../../contract/integrations';
import { isResolution, type IntegrationEvent } from './payloads';

// Which integrations a raised notification goes to: its type among the rule's types (none named
// means all), its severity at least the rule's minimum, and its server among the rule's servers.

const rank = (severity: NotificationSeverity) => NOTIFICATION_SEVERITIES.indexOf(severity);

export function matchesRules(kind: IntegrationKind, rules: IntegrationRules, event: IntegrationEvent): boolean {
  // An alert rule may keep its notifications in the app (its "notify integrations" off).
  if (event.metadata.toIntegrations === false) return false;
  if (rules.types.length > 0 && !rules.types.includes(event.type as IntegrationRules['types'][number])) return false;
  if (rules.serverIds && rules.serverIds.length > 0) {
    const serverId = event.metadata.serverId;
    if (typeof serverId !== 'string' || !rules.serverIds.includes(serverId)) return false;
  }
  // "Back online" (or an alert rule resolved) is a success, below any sensible minimum; PagerDuty
  // still needs it to resolve the incident the "offline" (or "firing") event opened.
  if (kind === 'pagerduty' && isResolution(event)) return true;
  return rank(event.severity) >= rank(rules.minSeverity);
}
