import type { Config } from '../config';
import { LiveMessageTypes, type LiveMessage } from '../../contract/live';

// One rule for every URL Toolscope hands out (docs/operations.md "Public URLs"):
// TOOLSCOPE_PUBLIC_URL when set; otherwise the origin the user reached Toolscope at, taken from
// the user's own request (a REST call, the live stream's connection). Messages that travel on the
// bus (shared by every stream, across instances) carry proxy URLs as paths; each stream completes
// them with its own connection's origin, so a card shows the same URL from REST and from a live
// update. Mail is the one place with no request of the recipient's: its links use
// TOOLSCOPE_PUBLIC_URL, else http://localhost:PORT — never the Host header of whoever asked for it.

export interface RequestOrigin {
  protocol: string;
  host: string;
}

export function publicBase(config: Pick<Config, 'publicUrl'>, origin: RequestOrigin): string {
  return config.publicUrl ?? `${origin.protocol}://${origin.host}`;
}

/** The base of links in mail (no request of the recipient's to take an origin from). */
export function mailLinkBase(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/** Base of URLs in bus messages: none (a path), completed by each stream with withPublicBase. */
export const ON_THE_BUS = '';

/**
 * A bus message as one stream sends it: a server's path-only proxy URL completed with the
 * stream's base. Other messages pass unchanged (no copy).
 */
export function withPublicBase(message: LiveMessage, base: string): LiveMessage {
  if (message.type !== LiveMessageTypes.serverUpdated) return message;
  const data = message.data as { proxyUrl?: unknown } | null;
  if (!data || typeof data.proxyUrl !== 'string' || !data.proxyUrl.startsWith('/')) return message;
  return { ...message, data: { ...data, proxyUrl: `${base}${data.proxyUrl}` } };
}
