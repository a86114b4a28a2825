import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database';
import type { ServerRow } from './mapper';

// Queries of the servers table. Every read and write is scoped by workspace id, so a server of
// another workspace is simply not found.
const COLUMNS = `id, workspace_id, name, url, description, transport, proxy_key, credentials_enc, timeout_ms, status,
  last_health_status, last_checked, last_error, schema_count, risk_finding_count, kind, allowed_origins, created_at, updated_at`;

/** 192 random bits, base64url: unguessable, URL-safe. */
export function generateProxyKey(): string {
  return randomBytes(24).toString('base64url');
}

export interface NewServer {
  workspaceId: string;
  name: string;
  url: string;
  description: string;
  transport: string;
  credentialsEnc: string | null;
  timeoutMs?: number | null;
  allowedOrigins?: string[];
}

export async function insertServer(db: Queryable, server: NewServer): Promise<ServerRow> {
  const [row] = await db.query<ServerRow>(
    `insert into servers (workspace_id, name, url, description, transport, proxy_key, credentials_enc, timeout_ms, allowed_origins)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[]) returning ${COLUMNS}`,
    [
      server.workspaceId,
      server.name,
      server.url,
      server.description,
      server.transport,
      generateProxyKey(),
      server.credentialsEnc,
      server.timeoutMs ?? null,
      server.allowedOrigins ?? [],
    ],
  );
  return row;
}

export function listServers(db: Queryable, workspaceId: string): Promise<ServerRow[]> {
  return db.query<ServerRow>(`select ${COLUMNS} from servers where workspace_id = $1 order by created_at, id`, [
    workspaceId,
  ]);
}

export async function findServer(db: Queryable, workspaceId: string, serverId: string): Promise<ServerRow | undefined> {
  const rows = await db.query<ServerRow>(`select ${COLUMNS} from servers where workspace_id = $1 and id = $2`, [
    workspaceId,
    serverId,
  ]);
  return rows[0];
}

export async function findServerByProxyKey(
  db: Queryable,
  proxyKey: string,
): Promise<(ServerRow & { oauth: boolean }) | undefined> {
  const rows = await db.query<ServerRow & { oauth: boolean }>(
    `select ${COLUMNS}, exists (select 1 from upstream_oauth_connections o where o.server_id = servers.id) as oauth
     from servers where proxy_key = $1`,
    [proxyKey],
  );
  return rows.at(0);
}

export interface ServerChanges {
  name?: string;
  url?: string;
  description?: string;
  transport?: string;
  /** undefined = keep; null = the instance's default. */
  timeoutMs?: number | null;
  /** undefined = keep; null = remove. */
  credentialsEnc?: string | null;
  /** undefined = keep; the list replaces the stored one. */
  allowedOrigins?: string[];
}

export async function updateServer(
  db: Queryable,
  workspaceId: string,
  serverId: string,
  changes: ServerChanges,
): Promise<ServerRow | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [workspaceId, serverId];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (changes.name !== undefined) set('name', changes.name);
  if (changes.url !== undefined) set('url', changes.url);
  if (changes.description !== undefined) set('description', changes.description);
  if (changes.transport !== undefined) set('transport', changes.transport);
  if (changes.credentialsEnc !== undefined) set('credentials_enc', changes.credentialsEnc);
  else if (changes.url !== undefined) {
    // A new URL without new credentials drops the stored ones: a secret stored for one host is
    // never sent to a host chosen later. Compared in SQL against the row as it is, so two
    // concurrent edits cannot slip a repoint past the check.
    params.push(changes.url);
    sets.push(`credentials_enc = case when url = $${params.length} then credentials_enc else null end`);
  }
  if (changes.timeoutMs !== undefined) set('timeout_ms', changes.timeoutMs);
  if (changes.allowedOrigins !== undefined) {
    params.push(changes.allowedOrigins);
    sets.push(`allowed_origins = $${params.length}::text[]`);
  }
  sets.push('updated_at = now()');
  const rows = await db.query<ServerRow>(
    `update servers set ${sets.join(', ')} where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
    params,
  );
  return rows[0];
}

export async function deleteServer(
  db: Queryable,
  workspaceId: string,
  serverId: string,
): Promise<ServerRow | undefined> {
  const rows = await db.query<ServerRow>(
    `delete from servers where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
    [workspaceId, serverId],
  );
  return rows[0];
}

export async function recordHealth(
  db: Queryable,
  serverId: string,
  healthy: boolean,
  error: string | null,
): Promise<void> {
  await db.query(
    `update servers set status = $2, last_health_status = $3, last_checked = now(), last_error = $4 where id = $1`,
    [serverId, healthy ? 'online' : 'offline', healthy, error],
  );
}
