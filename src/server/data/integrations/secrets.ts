import { randomBytes } from 'node:crypto';
import { MASK, type IntegrationKind } from '../../../contract/integrations';
import { decryptCredentials, encryptCredentials } from '../servers/credentials';

// Which config fields of each kind are secrets. They are stored encrypted (AES-256-GCM, the
// upstream-credentials key), never returned whole, and a value sent back masked means "unchanged".
export const SECRET_FIELDS: Record<IntegrationKind, readonly string[]> = {
  slack: ['webhookUrl'],
  webhook: ['secret'],
  pagerduty: ['routingKey'],
  email: [],
};

export function mask(value: string): string {
  return `${MASK}${value.slice(-4)}`;
}

export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(MASK);
}

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SplitConfig {
  plain: Record<string, unknown>;
  secrets: Record<string, string>;
}

/** Separates a full config into what is stored in the clear and what is encrypted. */
export function splitConfig(kind: IntegrationKind, config: Record<string, unknown>): SplitConfig {
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    // The config schemas make secrets strings; anything else is kept as its JSON.
    if (SECRET_FIELDS[kind].includes(key)) secrets[key] = typeof value === 'string' ? value : JSON.stringify(value);
    else plain[key] = value;
  }
  return { plain, secrets };
}

/**
 * Where each kind sends its secrets besides the secret itself. A PagerDuty routing key travels in
 * the body to `eventsUrl`; a webhook's signing secret never travels (only signatures do), and a
 * Slack webhook URL is its own destination.
 */
export const DESTINATION_FIELDS: Record<IntegrationKind, readonly string[]> = {
  slack: [],
  webhook: [],
  pagerduty: ['eventsUrl'],
  email: [],
};

/**
 * A config sent by a client, with masked (or omitted) secrets filled from the stored ones, so
 * an edit form can send back what it was shown — unless the config names another destination
 * than the stored one: a secret is never sent somewhere it was not entered for, so then only the
 * secrets the same request spells out count (a masked value is dropped, and validation asks for it).
 */
export function withStoredSecrets(
  kind: IntegrationKind,
  sent: Record<string, unknown>,
  stored: Partial<Record<string, string>>,
  storedPlain: Record<string, unknown>,
): Record<string, unknown> {
  const secretFields = SECRET_FIELDS[kind];
  const merged: Record<string, unknown> = {};
  // What the request spells out: every plain field, and the secrets it actually sets.
  for (const [key, value] of Object.entries(sent))
    if (!secretFields.includes(key) || (value !== undefined && !isMasked(value))) merged[key] = value;
  const repointed = DESTINATION_FIELDS[kind].some((field) => (sent[field] ?? null) !== (storedPlain[field] ?? null));
  if (repointed) return merged;
  for (const field of secretFields)
    if (!(field in merged) && Object.hasOwn(stored, field)) merged[field] = stored[field];
  return merged;
}

export function sealSecrets(secrets: Record<string, string>, serverSecret: string): string | null {
  return Object.keys(secrets).length > 0 ? encryptCredentials(secrets, serverSecret) : null;
}

export function openSecrets(sealed: string | null, serverSecret: string): Record<string, string> {
  return decryptCredentials(sealed, serverSecret);
}

/** The config as answers show it: plain fields, secrets masked. */
export function maskedConfig(
  kind: IntegrationKind,
  plain: Record<string, unknown>,
  secrets: Partial<Record<string, string>>,
): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...plain };
  for (const field of SECRET_FIELDS[kind]) if (secrets[field] !== undefined) shown[field] = mask(secrets[field]);
  return shown;
}
