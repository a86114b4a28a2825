import { Webhook } from 'standardwebhooks';
import type { Database } from '../db/database';
import { enqueueMail } from '../mail/outbox';
import type { OutboundClient } from '../net/outboundClient';
import { outboundFailureText, statusClassText } from '../net/outboundOutcome';
import { buildDelivery, type IntegrationEvent, type IntegrationTarget } from './payloads';

// One attempt to deliver one event to one integration, through the guarded outbound client (the
// SSRF policy applies to every URL a user types here) with a hard timeout.

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** Worth another try later: 5xx, 429, a network error or a timeout. */
  retryable: boolean;
  /** What a 429 or 503 asked for in Retry-After, in ms. */
  retryAfterMs: number | null;
  /** The receiver says it is gone for good (410): the integration is turned off. */
  gone: boolean;
  /** Nothing was sent because the event does not apply to this kind (e.g. a warning to PagerDuty). */
  skipped?: boolean;
}

export interface SenderDeps {
  db: Database;
  outbound: OutboundClient;
  publicBase: () => string;
  /** Called after an email integration queued its mails, so they go out now. */
  kickMail?: () => void;
  timeoutMs: number;
}

/** Retry-After is seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Standard Webhooks headers for a body: the delivery id names the message, so receivers can dedupe retries. */
export function signWebhook(secret: string, messageId: string, body: string, at = new Date()): Record<string, string> {
  const signature = new Webhook(secret).sign(messageId, at, body);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

export async function attemptDelivery(
  deps: SenderDeps,
  target: IntegrationTarget,
  event: IntegrationEvent,
  messageId: string,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const outgoing = buildDelivery(target, event, deps.publicBase());
  if (outgoing.transport === 'none') {
    return {
      ok: true,
      skipped: true,
      statusCode: null,
      latencyMs: 0,
      error: outgoing.reason,
      retryable: false,
      retryAfterMs: null,
      gone: false,
    };
  }
  if (outgoing.transport === 'mail') {
    try {
      for (const to of outgoing.to) await enqueueMail(deps.db, { to, subject: outgoing.subject, text: outgoing.text });
      deps.kickMail?.();
      return {
        ok: true,
        statusCode: null,
        latencyMs: elapsed(),
        error: null,
        retryable: false,
        retryAfterMs: null,
        gone: false,
      };
    } catch (error) {
      return {
        ok: false,
        statusCode: null,
        latencyMs: elapsed(),
        error: `Could not queue the mail: ${errorText(error)}`,
        retryable: true,
        retryAfterMs: null,
        gone: false,
      };
    }
  }
  const headers: Record<string, string> = { ...outgoing.headers, 'user-agent': 'Toolscope-Integrations/1' };
  if (target.kind === 'webhook' && typeof target.config.secret === 'string') {
    Object.assign(headers, signWebhook(target.config.secret, messageId, outgoing.body));
  }
  try {
    const response = await deps.outbound.fetch(outgoing.url, {
      method: 'POST',
      headers,
      body: outgoing.body,
      redirect: 'error',
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    // Read to the end so the connection can be reused, and never shown (net/outboundOutcome.ts).
    await response.arrayBuffer().catch(() => undefined);
    const status = response.status;
    const ok = status >= 200 && status < 300;
    return {
      ok,
      statusCode: status,
      latencyMs: elapsed(),
      error: ok ? null : statusClassText(status),
      retryable: status >= 500 || status === 429,
      retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after')) : null,
      gone: status === 410,
    };
  } catch (error) {
    const message = outboundFailureText(error);
    const blocked = error instanceof Error && (error as { code?: string }).code === 'outbound_blocked';
    return {
      ok: false,
      statusCode: null,
      latencyMs: elapsed(),
      error: message,
      retryable: !blocked,
      retryAfterMs: null,
      gone: false,
    };
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? cause.message : '';
    return detail && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
  }
  return String(error);
}
