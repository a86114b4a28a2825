import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/database';
import { decryptCredentials, encryptCredentials } from '../servers/credentials';

// The OAuth connections of servers (migration 037) and the attempts in flight. Tokens and the
// client secret are sealed together in secrets_enc and only opened in memory. An attempt is named
// by its state's SHA-256 (the state itself travels in URLs).

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

export type ConnectionStatus = 'required' | 'connected' | 'needs_reconnect';

export interface ConnectionSecrets {
  accessToken?: string;
  refreshToken?: string;
  clientSecret?: string;
}

export interface ConnectionRow {
  server_id: string;
  workspace_id: string;
  status: ConnectionStatus;
  resource: string | null;
  issuer: string | null;
  client_id: string | null;
  secrets_enc: string | null;
  scope: string | null;
  expires_at: Date | null;
  connected_as: string | null;
  connected_by_email: string | null;
  last_error: string | null;
  updated_at: Date;
}

const SELECT = `select c.server_id, c.workspace_id, c.status, c.resource, c.issuer, c.client_id, c.secrets_enc, c.scope,
  c.expires_at, c.connected_as, u.email as connected_by_email, c.last_error, c.updated_at
  from upstream_oauth_connections c left join users u on u.id = c.connected_by`;

export function sealSecrets(secrets: ConnectionSecrets, secret: string): string {
  const plain: Record<string, string> = {};
  for (const [key, value] of Object.entries(secrets)) if (typeof value === 'string') plain[key] = value;
  return encryptCredentials(plain, secret);
}

/** {} when sealed under another secret (the connection must then be made again). */
export function openSecrets(stored: string | null, secret: string): ConnectionSecrets {
  try {
    return decryptCredentials(stored, secret);
  } catch {
    return {};
  }
}

export async function loadConnection(db: Queryable, serverId: string): Promise<ConnectionRow | undefined> {
  return (await db.query<ConnectionRow>(`${SELECT} where c.server_id = $1`, [serverId])).at(0);
}

export async function listConnections(db: Queryable, workspaceId: string): Promise<ConnectionRow[]> {
  return db.query<ConnectionRow>(`${SELECT} where c.workspace_id = $1`, [workspaceId]);
}

/** The server asked for OAuth: shown as "needs sign-in" until someone connects it. */
export async function markRequired(db: Queryable, serverId: string, workspaceId: string): Promise<void> {
  await db.query(
    `insert into upstream_oauth_connections (server_id, workspace_id, status) values ($1, $2, 'required')
     on conflict (server_id) do nothing`,
    [serverId, workspaceId],
  );
}

export interface ConnectedTokens {
  serverId: string;
  workspaceId: string;
  issuer: string;
  resource: string;
  clientId: string;
  secretsEnc: string;
  scope: string | null;
  expiresAt: Date | null;
  connectedAs: string | null;
  connectedBy: string | null;
}

export async function saveConnection(db: Queryable, c: ConnectedTokens): Promise<void> {
  await db.query(
    `insert into upstream_oauth_connections
       (server_id, workspace_id, status, issuer, resource, client_id, secrets_enc, scope, expires_at, connected_as, connected_by, last_error, updated_at)
     values ($1, $2, 'connected', $3, $4, $5, $6, $7, $8, $9, $10, null, now())
     on conflict (server_id) do update set status = 'connected', issuer = $3, resource = $4, client_id = $5,
       secrets_enc = $6, scope = $7, expires_at = $8, connected_as = $9, connected_by = $10, last_error = null, updated_at = now()`,
    [c.serverId, c.workspaceId, c.issuer, c.resource, c.clientId, c.secretsEnc, c.scope, c.expiresAt, c.connectedAs, c.connectedBy],
  );
}

/** After a refresh: new tokens, same connection. */
export async function saveRefreshed(
  db: Queryable,
  serverId: string,
  secretsEnc: string,
  expiresAt: Date | null,
  scope: string | null,
): Promise<void> {
  await db.query(
    `update upstream_oauth_connections set secrets_enc = $2, expires_at = $3, scope = coalesce($4, scope),
       status = 'connected', last_error = null, updated_at = now() where server_id = $1`,
    [serverId, secretsEnc, expiresAt, scope],
  );
}

export async function markNeedsReconnect(db: Queryable, serverId: string, reason: string): Promise<void> {
  await db.query(
    `update upstream_oauth_connections set status = 'needs_reconnect', last_error = $2, updated_at = now()
     where server_id = $1 and status = 'connected'`,
    [serverId, reason],
  );
}

/** Disconnect: the tokens go; the server still asks for OAuth, so it is shown as needing sign-in. */
export async function dropTokens(db: Queryable, serverId: string): Promise<boolean> {
  const rows = await db.query(
    `update upstream_oauth_connections set status = 'required', secrets_enc = null, expires_at = null,
       connected_as = null, connected_by = null, last_error = null, updated_at = now()
     where server_id = $1 returning server_id`,
    [serverId],
  );
  return rows.length > 0;
}

export interface OAuthAttempt {
  serverId: string;
  userId: string;
  codeVerifier: string;
  returnPath: string;
  issuer: string;
  resource: string;
  clientId: string;
  secretsEnc: string | null;
  scope: string | null;
}

const ATTEMPT_TTL_MINUTES = 10;

export async function saveAttempt(db: Queryable, state: string, attempt: OAuthAttempt): Promise<void> {
  await db.query('delete from upstream_oauth_attempts where expires_at < now()');
  await db.query(
    `insert into upstream_oauth_attempts
       (state_hash, server_id, user_id, code_verifier, return_path, issuer, resource, client_id, secrets_enc, scope, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(mins => $11))`,
    [
      hashState(state),
      attempt.serverId,
      attempt.userId,
      attempt.codeVerifier,
      attempt.returnPath,
      attempt.issuer,
      attempt.resource,
      attempt.clientId,
      attempt.secretsEnc,
      attempt.scope,
      ATTEMPT_TTL_MINUTES,
    ],
  );
}

/** Used once: taking it deletes it. */
export async function takeAttempt(db: Queryable, state: string): Promise<(OAuthAttempt & { workspaceId: string }) | undefined> {
  const rows = await db.query<{
    server_id: string;
    workspace_id: string;
    user_id: string;
    code_verifier: string;
    return_path: string;
    issuer: string;
    resource: string;
    client_id: string;
    secrets_enc: string | null;
    scope: string | null;
    expires_at: Date;
  }>(
    `with taken as (delete from upstream_oauth_attempts where state_hash = $1 returning *)
     select t.*, s.workspace_id from taken t join servers s on s.id = t.server_id`,
    [hashState(state)],
  );
  const row = rows.at(0);
  if (!row || new Date(row.expires_at).getTime() < Date.now()) return undefined;
  return {
    serverId: row.server_id,
    workspaceId: row.workspace_id,
    userId: row.user_id,
    codeVerifier: row.code_verifier,
    returnPath: row.return_path,
    issuer: row.issuer,
    resource: row.resource,
    clientId: row.client_id,
    secretsEnc: row.secrets_enc,
    scope: row.scope,
  };
}
