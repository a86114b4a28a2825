import { API } from './routes';

// MCP servers that require OAuth 2.1 (issue 34 item 2, docs/access.md "Servers that require OAuth").
// No zod here: the SPA may load this before it configures zod (its schemas: upstreamOAuthSchemas.ts).

export const UpstreamOAuthPaths = {
  /** GET: the OAuth connections of a workspace's servers. */
  list: (ws: string) => `${API}/workspaces/${ws}/upstream-oauth`,
  /** POST: start connecting (answers the authorization URL the browser goes to). */
  connect: (ws: string, serverId: string) => `${API}/workspaces/${ws}/servers/${serverId}/oauth/connect`,
  /** DELETE: forget the tokens (the server then asks for a new connection). */
  connection: (ws: string, serverId: string) => `${API}/workspaces/${ws}/servers/${serverId}/oauth`,
  /** GET: where the server's authorization server returns the browser. */
  callback: `${API}/oauth/upstream/callback`,
  /** GET: Toolscope's client ID metadata document (its URL is the client ID; HTTPS public URL only). */
  clientMetadata: `${API}/oauth/upstream/client-metadata.json`,
} as const;

export const UPSTREAM_OAUTH_STATUSES = ['required', 'connected', 'needs_reconnect'] as const;
export type UpstreamOAuthStatus = (typeof UPSTREAM_OAUTH_STATUSES)[number];

/** The connection did not complete: `?oauth_error={code}` on the return path. */
export const UPSTREAM_OAUTH_ERRORS = {
  denied: 'The sign-in at the server’s authorization server was cancelled.',
  state: 'That connection link was already used or has expired. Start again from the server card.',
  failed: 'The authorization server refused the connection or could not be reached. Try again.',
} as const;

export function upstreamOAuthErrorText(code: string | null): string | null {
  if (code === null) return null;
  return (UPSTREAM_OAUTH_ERRORS as Record<string, string>)[code] ?? UPSTREAM_OAUTH_ERRORS.failed;
}

/** One server's OAuth connection as the API answers it (its schema: upstreamOAuthSchemas.ts). */
export interface UpstreamOAuthConnectionDto {
  serverId: string;
  status: UpstreamOAuthStatus;
  issuer: string | null;
  scope: string | null;
  expiresAt: string | null;
  /** Who the tokens act as, when the authorization server said. */
  connectedAs: string | null;
  /** The Toolscope user who connected it. */
  connectedBy: string | null;
  lastError: string | null;
  updatedAt: string;
}
