import { PAGERDUTY_EVENTS_URL, type IntegrationKind, type WebhookEventBody } from '../../contract/integrations';
import type { NotificationSeverity } from '../../contract/notifications';

// What each kind of integration is sent for one event. Built at send time from the integration's
// current config, so a rotated secret or a changed URL applies to retries too.

/** A raised notification as the integrations see it (stored with each delivery). */
export interface IntegrationEvent {
  /** `notification.raised`, or `integration.test` for the sample a test sends. */
  kind: 'notification.raised' | 'integration.test';
  workspaceId: string;
  type: string;
  severity: NotificationSeverity;
  title: string;
  message: string;
  actionUrl: string | null;
  metadata: Record<string, unknown>;
  raisedAt: string;
}

export interface IntegrationTarget {
  kind: IntegrationKind;
  /** Plain settings and decrypted secrets together. */
  config: Record<string, unknown>;
}

/** One HTTP request to make, or mails to queue (email integrations go through the outbox). */
export type OutgoingDelivery =
  | { transport: 'http'; url: string; headers: Record<string, string>; body: string }
  | { transport: 'mail'; to: string[]; subject: string; text: string }
  | { transport: 'none'; reason: string };

const SLACK_COLOURS: Record<NotificationSeverity, string> = {
  info: '#2684FF',
  success: '#2EB67D',
  warning: '#ECB22E',
  error: '#E01E5A',
  critical: '#8B0000',
};

/** Absolute link to the item: in-app paths are joined to the public base; absolute URLs stay. */
export function itemLink(actionUrl: string | null, publicBase: string): string | null {
  if (!actionUrl) return null;
  if (/^https?:\/\//i.test(actionUrl)) return actionUrl;
  return `${publicBase.replace(/\/+$/, '')}${actionUrl.startsWith('/') ? '' : '/'}${actionUrl}`;
}

export function webhookBody(event: IntegrationEvent, publicBase: string): WebhookEventBody {
  return {
    type: event.kind,
    timestamp: event.raisedAt,
    data: {
      workspaceId: event.workspaceId,
      notification: {
        type: event.type,
        severity: event.severity,
        title: event.title,
        message: event.message,
        url: itemLink(event.actionUrl, publicBase),
        metadata: event.metadata,
      },
    },
  };
}

/** Slack's incoming webhooks take Block Kit; the severity colour needs the attachment wrapper. */
export function slackMessage(event: IntegrationEvent, publicBase: string): Record<string, unknown> {
  const link = itemLink(event.actionUrl, publicBase);
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: event.title.slice(0, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: escapeSlack(event.message).slice(0, 3000) } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `*${event.severity.toUpperCase()}* · ${event.type} · Toolscope` }],
    },
  ];
  if (link) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in Toolscope' }, url: link }],
    });
  }
  // `text` is the fallback notifications and screen readers use.
  return {
    text: `[${event.severity}] ${event.title}: ${event.message}`,
    attachments: [{ color: SLACK_COLOURS[event.severity], blocks }],
  };
}

/** Slack mrkdwn treats &, < and > as control characters. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const PAGERDUTY_SEVERITY: Partial<Record<NotificationSeverity, 'critical' | 'error' | 'warning' | 'info'>> = {
  critical: 'critical',
  error: 'error',
};

/**
 * Server status events share one dedup key per server, so "back online" resolves the incident; an
 * alert rule's firing and resolved events share the rule's.
 */
export function pagerDutyDedupKey(event: IntegrationEvent): string {
  if (event.type === 'alert_rule' && typeof event.metadata.ruleId === 'string')
    return `toolscope:${event.workspaceId}:alert_rule:${event.metadata.ruleId}`;
  const serverId = typeof event.metadata.serverId === 'string' ? event.metadata.serverId : null;
  if (event.type === 'tool_server_status' && serverId) return `toolscope:${event.workspaceId}:server:${serverId}`;
  if (serverId) return `toolscope:${event.workspaceId}:${event.type}:${serverId}`;
  return `toolscope:${event.workspaceId}:${event.type}:${event.title}`.slice(0, 255);
}

/** Is this the good news that ends an incident (a server back online, an alert rule resolved)? */
export function isResolution(event: IntegrationEvent): boolean {
  if (event.type === 'alert_rule') return event.metadata.status === 'resolved';
  return event.type === 'tool_server_status' && event.metadata.status === 'online';
}

/**
 * Events API v2: `trigger` for error and critical, `resolve` when the server is back online; other
 * severities are not incidents and are not sent (the rules' minimum severity rarely lets them by).
 */
export function pagerDutyEvent(
  event: IntegrationEvent,
  routingKey: string,
  publicBase: string,
): Record<string, unknown> | null {
  const link = itemLink(event.actionUrl, publicBase);
  const dedupKey = pagerDutyDedupKey(event);
  if (isResolution(event)) return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
  const severity = event.kind === 'integration.test' ? 'info' : PAGERDUTY_SEVERITY[event.severity];
  if (!severity) return null;
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: `${event.title}: ${event.message}`.slice(0, 1024),
      source: typeof event.metadata.serverName === 'string' ? event.metadata.serverName : 'toolscope',
      severity,
      component: typeof event.metadata.serverId === 'string' ? event.metadata.serverId : undefined,
      group: event.workspaceId,
      class: event.type,
      timestamp: event.raisedAt,
      custom_details: event.metadata,
    },
    client: 'Toolscope',
    client_url: link ?? publicBase,
    links: link ? [{ href: link, text: 'Open in Toolscope' }] : [],
  };
}

function mailText(event: IntegrationEvent, publicBase: string): string {
  const link = itemLink(event.actionUrl, publicBase);
  return [
    event.title,
    '',
    event.message,
    '',
    `Severity: ${event.severity}`,
    `Type: ${event.type}`,
    link ? `\nOpen in Toolscope: ${link}` : '',
  ]
    .join('\n')
    .trim();
}

/** The request (or mails) for one event; signing of webhooks is the sender's (it needs the time). */
export function buildDelivery(
  target: IntegrationTarget,
  event: IntegrationEvent,
  publicBase: string,
): OutgoingDelivery {
  const json = { 'content-type': 'application/json' };
  switch (target.kind) {
    case 'slack':
      return {
        transport: 'http',
        url: String(target.config.webhookUrl),
        headers: json,
        body: JSON.stringify(slackMessage(event, publicBase)),
      };
    case 'webhook':
      return {
        transport: 'http',
        url: String(target.config.url),
        headers: json,
        body: JSON.stringify(webhookBody(event, publicBase)),
      };
    case 'pagerduty': {
      const body = pagerDutyEvent(event, String(target.config.routingKey), publicBase);
      if (!body)
        return {
          transport: 'none',
          reason: `PagerDuty is sent error and critical events only (this one is ${event.severity})`,
        };
      const url =
        typeof target.config.eventsUrl === 'string' && target.config.eventsUrl
          ? target.config.eventsUrl
          : PAGERDUTY_EVENTS_URL;
      return { transport: 'http', url, headers: json, body: JSON.stringify(body) };
    }
    case 'email': {
      const to = Array.isArray(target.config.to) ? target.config.to.map(String) : [];
      return {
        transport: 'mail',
        to,
        subject: `[Toolscope] ${event.title}`.slice(0, 200),
        text: mailText(event, publicBase),
      };
    }
  }
}

/** A line for the activity log: what was sent, without secrets. */
export function summarize(event: IntegrationEvent): string {
  return `${event.severity} · ${event.title}: ${event.message}`.slice(0, 300);
}
