import type { Queryable } from '../../db/database';
import { decryptCredentials, encryptCredentials } from '../servers/credentials';

// Queries of workspace_keys: named secrets whose values are sealed with the same AES-256-GCM key
// as server credentials (credentials.ts) and never leave the server except in upstream headers.
export interface WorkspaceKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  allowed_hosts: string[] | null;
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = 'id, workspace_id, name, description, allowed_hosts, created_at, updated_at, last_used_at';

export function sealKeyValue(value: string, secret: string): string {
  return encryptCredentials({ value }, secret);
}

/** The value, or undefined when it cannot be read (sealed under another secret). */
export function openKeyValue(sealed: string, secret: string): string | undefined {
  try {
    return decryptCredentials(sealed, secret).value;
  } catch {
    return undefined;
  }
}

export function listWorkspaceKeys(db: Queryable, workspaceId: string): Promise<WorkspaceKeyRow[]> {
  return db.query<WorkspaceKeyRow>(`select ${COLUMNS} from workspace_keys where workspace_id = $1 order by name`, [
    workspaceId,
  ]);
}

export async function findWorkspaceKey(
  db: Queryable,
  workspaceId: string,
  keyId: string,
): Promise<WorkspaceKeyRow | undefined> {
  const rows = await db.query<WorkspaceKeyRow>(
    `select ${COLUMNS} from workspace_keys where workspace_id = $1 and id = $2`,
    [workspaceId, keyId],
  );
  return rows[0];
}

/** undefined when the name is taken in this workspace. */
export async function insertWorkspaceKey(
  db: Queryable,
  key: { workspaceId: string; name: string; description: string; valueEnc: string; allowedHosts: string[] },
): Promise<WorkspaceKeyRow | undefined> {
  const rows = await db.query<WorkspaceKeyRow>(
    `insert into workspace_keys (workspace_id, name, description, value_enc, allowed_hosts) values ($1, $2, $3, $4, $5)
     on conflict (workspace_id, name) do nothing returning ${COLUMNS}`,
    [key.workspaceId, key.name, key.description, key.valueEnc, [...new Set(key.allowedHosts)]],
  );
  return rows[0];
}

export async function updateWorkspaceKey(
  db: Queryable,
  workspaceId: string,
  keyId: string,
  changes: { valueEnc?: string; description?: string },
): Promise<WorkspaceKeyRow | undefined> {
  const rows = await db.query<WorkspaceKeyRow>(
    `update workspace_keys set value_enc = coalesce($3, value_enc), description = coalesce($4, description), updated_at = now()
      where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
    [workspaceId, keyId, changes.valueEnc ?? null, changes.description ?? null],
  );
  return rows[0];
}

export async function setWorkspaceKeyHosts(
  db: Queryable,
  workspaceId: string,
  keyId: string,
  allowedHosts: string[],
): Promise<WorkspaceKeyRow | undefined> {
  const rows = await db.query<WorkspaceKeyRow>(
    `update workspace_keys set allowed_hosts = $3, updated_at = now() where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
    [workspaceId, keyId, [...new Set(allowedHosts)].sort()],
  );
  return rows[0];
}

/** The hosts of the named keys of a workspace (names without a key are absent). */
export async function hostsOfKeys(
  db: Queryable,
  workspaceId: string,
  names: string[],
): Promise<Map<string, string[] | null>> {
  const rows = await db.query<{ name: string; allowed_hosts: string[] | null }>(
    'select name, allowed_hosts from workspace_keys where workspace_id = $1 and name = any($2::text[])',
    [workspaceId, names],
  );
  return new Map(rows.map((row) => [row.name, row.allowed_hosts]));
}

export async function deleteWorkspaceKey(db: Queryable, workspaceId: string, keyId: string): Promise<void> {
  await db.query('delete from workspace_keys where workspace_id = $1 and id = $2', [workspaceId, keyId]);
}

/** Every key of the workspace with its sealed value (the proxy's resolver). */
export function loadSealedKeys(
  db: Queryable,
  workspaceId: string,
): Promise<{ id: string; name: string; value_enc: string; allowed_hosts: string[] | null }[]> {
  return db.query('select id, name, value_enc, allowed_hosts from workspace_keys where workspace_id = $1', [
    workspaceId,
  ]);
}

/** At most once a minute per key. */
export async function touchWorkspaceKey(db: Queryable, keyId: string): Promise<void> {
  await db.query(
    `update workspace_keys set last_used_at = now() where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [keyId],
  );
}
