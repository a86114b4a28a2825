import type { FetchLike } from '../net/outboundClient';

// Does an MCP server require OAuth, and which authorization server vouches for it? (MCP
// authorization, 2025-06-18 and later): the server answers an unauthenticated request with 401
// and `WWW-Authenticate: Bearer resource_metadata="…"`; that document (RFC 9728) names the
// resource and its authorization servers. Without the header, the well-known location is tried.
// Every request goes through the guarded outbound fetch: the URLs come from the server.

export interface ProtectedResource {
  /** The resource indicator (RFC 8707) tokens are asked for. */
  resource: string;
  /** The authorization server's issuer (the first the metadata names). */
  issuer: string;
  /** What to ask for: the challenge's scope, else the metadata's scopes_supported. */
  scopes: string[];
}

/** The server's OAuth set-up is not usable; the message says what to fix. */
export class OAuthSetupError extends Error {}

// A ping: no side effect on a server that answers it (an initialize would open a session there).
// A server that requires OAuth refuses it with 401 before reading it.
const PROBE = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' });

/** `key="value"` parameters of a Bearer challenge (RFC 6750 §3). */
export function bearerChallenge(header: string | null): Record<string, string> | undefined {
  if (!header || !/^\s*bearer\b/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/gi)) params[match[1].toLowerCase()] = match[2];
  return params;
}

function sameResource(a: string, b: string): boolean {
  const strip = (value: string) => {
    const url = new URL(value);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  };
  return strip(a) === strip(b);
}

/** undefined: the server answered without asking for OAuth. */
export async function discoverProtectedResource(
  serverUrl: string,
  fetch: FetchLike,
): Promise<ProtectedResource | undefined> {
  const probe = await fetch(serverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: PROBE,
  });
  await probe.body?.cancel();
  if (probe.status !== 401) return undefined;
  const challenge = bearerChallenge(probe.headers.get('www-authenticate'));
  const url = new URL(serverUrl);
  const metadataUrl =
    challenge?.resource_metadata ??
    `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
  const answer = await fetch(metadataUrl, { headers: { accept: 'application/json' } });
  if (!answer.ok)
    throw new OAuthSetupError(`The server asks for OAuth but its resource metadata answered ${answer.status}`);
  let metadata: { resource?: unknown; authorization_servers?: unknown; scopes_supported?: unknown };
  try {
    metadata = (await answer.json()) as typeof metadata;
  } catch {
    throw new OAuthSetupError('The server asks for OAuth but its resource metadata is not JSON');
  }
  const servers = Array.isArray(metadata.authorization_servers) ? metadata.authorization_servers : [];
  const issuer = servers.find((s): s is string => typeof s === 'string');
  if (typeof metadata.resource !== 'string' || !issuer)
    throw new OAuthSetupError('The server asks for OAuth but its resource metadata names no authorization server');
  // RFC 9728 §3.3: metadata for another resource is not this server's (a planted document).
  if (!sameResource(metadata.resource, serverUrl))
    throw new OAuthSetupError(`The server's resource metadata is for ${metadata.resource}, not for this server`);
  const supported = Array.isArray(metadata.scopes_supported)
    ? metadata.scopes_supported.filter((s): s is string => typeof s === 'string')
    : [];
  const scopes = challenge?.scope ? challenge.scope.split(' ').filter(Boolean) : supported;
  return { resource: metadata.resource, issuer, scopes };
}
