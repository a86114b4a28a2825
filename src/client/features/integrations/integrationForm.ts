import type { FieldErrors } from '../../api/apiError';
import type {
  CreateIntegrationBody,
  IntegrationDto,
  IntegrationKind,
  IntegrationRules,
} from '../../../contract/integrations';
import type { NotificationSeverity, NotificationType } from '../../../contract/notifications';

// The add / edit integration form as plain data: what the fields hold, the config each kind
// sends, and what the browser can check before a round trip.

export interface IntegrationFormValues {
  kind: IntegrationKind;
  name: string;
  /** slack: the incoming webhook URL; webhook: the receiver URL; pagerduty: the Events API URL (optional). */
  url: string;
  /** webhook: the signing secret (empty = generate); pagerduty: the routing key. */
  secret: string;
  /** email: addresses, separated by commas, spaces or new lines. */
  recipients: string;
  types: NotificationType[];
  minSeverity: NotificationSeverity;
  enabled: boolean;
}

export const KIND_LABELS: Record<IntegrationKind, string> = {
  slack: 'Slack',
  webhook: 'Webhook',
  pagerduty: 'PagerDuty',
  email: 'Email',
};

export const EMPTY_FORM: IntegrationFormValues = {
  kind: 'slack',
  name: '',
  url: '',
  secret: '',
  recipients: '',
  types: [],
  minSeverity: 'warning',
  enabled: true,
};

export function formFromIntegration(integration: IntegrationDto): IntegrationFormValues {
  const c = integration.config;
  const text = (key: string) => (typeof c[key] === 'string' ? c[key] : '');
  return {
    kind: integration.kind,
    name: integration.name,
    url:
      integration.kind === 'slack'
        ? text('webhookUrl')
        : integration.kind === 'webhook'
          ? text('url')
          : text('eventsUrl'),
    secret:
      integration.kind === 'webhook' ? text('secret') : integration.kind === 'pagerduty' ? text('routingKey') : '',
    recipients: Array.isArray(c.to) ? (c.to as string[]).join(', ') : '',
    types: [...integration.rules.types],
    minSeverity: integration.rules.minSeverity,
    enabled: integration.enabled,
  };
}

export function recipientsOf(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The config a kind sends; a masked secret left as shown keeps the stored one on the server. */
export function configOf(values: IntegrationFormValues): Record<string, unknown> {
  switch (values.kind) {
    case 'slack':
      return { webhookUrl: values.url.trim() };
    case 'webhook':
      return values.secret.trim()
        ? { url: values.url.trim(), secret: values.secret.trim() }
        : { url: values.url.trim() };
    case 'pagerduty':
      return values.url.trim()
        ? { routingKey: values.secret.trim(), eventsUrl: values.url.trim() }
        : { routingKey: values.secret.trim() };
    case 'email':
      return { to: recipientsOf(values.recipients) };
  }
}

export function rulesOf(values: IntegrationFormValues): IntegrationRules {
  return { types: values.types, minSeverity: values.minSeverity };
}

export function createBodyOf(values: IntegrationFormValues): CreateIntegrationBody {
  return {
    kind: values.kind,
    name: values.name.trim(),
    config: configOf(values),
    rules: rulesOf(values),
    enabled: values.enabled,
  } as CreateIntegrationBody;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Every problem the browser can see, keyed by field, so all show at once. */
export function validateForm(values: IntegrationFormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.name.trim()) errors.name = 'Name the integration';
  const url = values.url.trim();
  if (values.kind === 'slack' || values.kind === 'webhook') {
    if (!url) errors.url = 'Required';
    else if (!isHttpUrl(url)) errors.url = 'Expected an http or https URL';
  }
  if (values.kind === 'pagerduty') {
    if (!values.secret.trim()) errors.secret = 'Required';
    if (url && !isHttpUrl(url)) errors.url = 'Expected an http or https URL';
  }
  if (
    values.kind === 'webhook' &&
    values.secret.trim() &&
    !values.secret.startsWith('••••') &&
    !/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/.test(values.secret.trim())
  ) {
    errors.secret = "Expected a Standard Webhooks secret ('whsec_' + base64), or leave empty to generate one";
  }
  if (values.kind === 'email') {
    const to = recipientsOf(values.recipients);
    if (to.length === 0) errors.recipients = 'Name at least one address';
    else if (to.some((a) => !EMAIL.test(a)))
      errors.recipients = `Not an email address: ${to.find((a) => !EMAIL.test(a))}`;
  }
  return errors;
}

/** The server names config fields `config.url`; the form's fields are named by what they hold. */
export function formFieldOf(serverField: string): string {
  if (serverField === 'config.webhookUrl' || serverField === 'config.url' || serverField === 'config.eventsUrl')
    return 'url';
  if (serverField === 'config.secret' || serverField === 'config.routingKey') return 'secret';
  if (serverField.startsWith('config.to')) return 'recipients';
  if (serverField.startsWith('rules.')) return 'rules';
  return serverField.replace(/^config\./, '');
}
