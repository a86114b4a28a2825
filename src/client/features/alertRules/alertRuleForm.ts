import type { AlertRuleDto, CreateAlertRuleBody } from '../../../contract/alertRules';
import { ALERT_CONDITIONS, ALERT_METRICS, ALERT_SEVERITIES } from '../../../contract/alertRules';

// The rule form's values (numbers as typed text) and how they become a request body.
export interface AlertRuleFormValues {
  name: string;
  metric: (typeof ALERT_METRICS)[number];
  condition: (typeof ALERT_CONDITIONS)[number];
  threshold: string;
  windowMinutes: string;
  forMinutes: string;
  severity: (typeof ALERT_SEVERITIES)[number];
  serverId: string;
  tool: string;
  client: string;
  quiet: boolean;
  quietStart: string;
  quietEnd: string;
  timeZone: string;
  notifyIntegrations: boolean;
}

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function initialValues(rule?: AlertRuleDto): AlertRuleFormValues {
  return {
    name: rule?.name ?? '',
    metric: rule?.metric ?? 'error_rate',
    condition: rule?.condition ?? 'above',
    threshold: rule ? String(rule.threshold) : '5',
    windowMinutes: rule ? String(rule.windowMinutes) : '10',
    forMinutes: rule ? String(rule.forMinutes) : '5',
    severity: rule?.severity ?? 'warning',
    serverId: rule?.scope.serverId ?? '',
    tool: rule?.scope.tool ?? '',
    client: rule?.scope.client ?? '',
    quiet: Boolean(rule?.quietHours),
    quietStart: rule?.quietHours?.start ?? '18:00',
    quietEnd: rule?.quietHours?.end ?? '08:00',
    timeZone: rule?.quietHours?.timeZone ?? browserTimeZone(),
    notifyIntegrations: rule?.notifyIntegrations ?? true,
  };
}

/** Text that is not a number goes as NaN: the server answers which field is wrong. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export function toBody(values: AlertRuleFormValues, enabled = true): CreateAlertRuleBody {
  return {
    name: values.name,
    metric: values.metric,
    condition: values.condition,
    threshold: numberOf(values.threshold),
    windowMinutes: numberOf(values.windowMinutes),
    forMinutes: numberOf(values.forMinutes),
    severity: values.severity,
    scope: {
      ...(values.serverId ? { serverId: values.serverId } : {}),
      ...(values.tool.trim() ? { tool: values.tool.trim() } : {}),
      ...(values.client.trim() ? { client: values.client.trim() } : {}),
    },
    quietHours: values.quiet ? { start: values.quietStart, end: values.quietEnd, timeZone: values.timeZone } : null,
    notifyIntegrations: values.notifyIntegrations,
    enabled,
  };
}
