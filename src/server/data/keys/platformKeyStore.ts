import type { Queryable } from '../../db/database';
import type { KeyRefusalDto, KeyRefusalReason, PlatformKeyDto, PlatformKeyScopes } from '../../../contract/keys';

// Queries of platform_keys and platform_key_refusals. Every read and write of the API is scoped by
// workspace id, so another workspace's key is simply not found.
export interface PlatformKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  all_servers: boolean;
  server_ids: string[];
  expires_at: Date | null;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  updated_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoke_reason: string | null;
}

/** What the proxy keeps in memory of a key. */
export interface ProxyKeyRow {
  id: string;
  workspace_id: string;
  prefix: string;
  secret_hash: Buffer | Uint8Array;
  all_servers: boolean;
  server_ids: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = `k.id, k.workspace_id, k.name, k.prefix, k.all_servers, k.server_ids, k.expires_at, k.created_at, k.created_by,
  nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as created_by_name,
  k.updated_at, k.last_used_at, k.revoked_at, k.revoke_reason`;
const FROM = 'platform_keys k left join users u on u.id = k.created_by';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function toPlatformKeyDto(
  row: PlatformKeyRow,
  refusals: KeyRefusalDto[] = [],
  now = Date.now(),
): PlatformKeyDto {
  const status = row.revoked_at
    ? 'revoked'
    : row.expires_at && new Date(row.expires_at).getTime() <= now
      ? 'expired'
      : 'active';
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: { allServers: row.all_servers, serverIds: row.all_servers ? [] : row.server_ids },
    expiresAt: iso(row.expires_at),
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    updatedAt: new Date(row.updated_at).toISOString(),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    revokeReason: row.revoke_reason,
    status,
    refusals,
  };
}

export interface NewPlatformKey {
  workspaceId: string;
  name: string;
  prefix: string;
  secretHash: Buffer;
  scopes: PlatformKeyScopes;
  expiresAt: string | null;
  createdBy: string;
}

export async function insertPlatformKey(db: Queryable, key: NewPlatformKey): Promise<PlatformKeyRow> {
  const [{ id }] = await db.query<{ id: string }>(
    `insert into platform_keys (workspace_id, name, prefix, secret_hash, all_servers, server_ids, expires_at, created_by)
     values ($1, $2, $3, $4, $5, $6::uuid[], $7, $8) returning id`,
    [
      key.workspaceId,
      key.name,
      key.prefix,
      key.secretHash,
      key.scopes.allServers,
      key.scopes.allServers ? [] : key.scopes.serverIds,
      key.expiresAt,
      key.createdBy,
    ],
  );
  const row = await findPlatformKey(db, key.workspaceId, id);
  if (!row) throw new Error(`Platform key ${id} was not found right after its insert`);
  return row;
}

export function listPlatformKeys(db: Queryable, workspaceId: string): Promise<PlatformKeyRow[]> {
  return db.query<PlatformKeyRow>(
    `select ${COLUMNS} from ${FROM} where k.workspace_id = $1 order by k.created_at desc, k.id`,
    [workspaceId],
  );
}

export async function findPlatformKey(
  db: Queryable,
  workspaceId: string,
  keyId: string,
): Promise<PlatformKeyRow | undefined> {
  const rows = await db.query<PlatformKeyRow>(
    `select ${COLUMNS} from ${FROM} where k.workspace_id = $1 and k.id = $2`,
    [workspaceId, keyId],
  );
  return rows[0];
}

export interface PlatformKeyChanges {
  name?: string;
  scopes?: PlatformKeyScopes;
  /** undefined: keep; null: never expires. */
  expiresAt?: string | null;
}

export async function updatePlatformKey(
  db: Queryable,
  workspaceId: string,
  keyId: string,
  changes: PlatformKeyChanges,
): Promise<boolean> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [workspaceId, keyId];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (changes.name !== undefined) set('name', changes.name);
  if (changes.scopes !== undefined) {
    set('all_servers', changes.scopes.allServers);
    set('server_ids', changes.scopes.allServers ? [] : changes.scopes.serverIds, '::uuid[]');
  }
  if (changes.expiresAt !== undefined) set('expires_at', changes.expiresAt);
  const rows = await db.query(
    `update platform_keys set ${sets.join(', ')} where workspace_id = $1 and id = $2 returning id`,
    params,
  );
  return rows.length > 0;
}

/** Revokes once: a key already revoked keeps its first time and reason. */
export async function revokePlatformKey(
  db: Queryable,
  workspaceId: string,
  keyId: string,
  reason: string,
): Promise<void> {
  await db.query(
    `update platform_keys set revoked_at = now(), revoke_reason = $3, updated_at = now()
      where workspace_id = $1 and id = $2 and revoked_at is null`,
    [workspaceId, keyId, reason],
  );
}

/** Every key (or one), as the proxy's cache holds them. Revoked keys too: their refusal names the reason. */
export function loadProxyKeys(db: Queryable, keyId?: string): Promise<ProxyKeyRow[]> {
  const where = keyId ? 'where id = $1' : '';
  return db.query<ProxyKeyRow>(
    `select id, workspace_id, prefix, secret_hash, all_servers, server_ids, expires_at, revoked_at from platform_keys ${where}`,
    keyId ? [keyId] : [],
  );
}

/** At most once a minute per key, whichever instance gets there first. */
export async function touchPlatformKey(db: Queryable, keyId: string): Promise<void> {
  await db.query(
    `update platform_keys set last_used_at = now()
      where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [keyId],
  );
}

export interface RefusalEntry {
  workspaceId: string;
  keyId: string | null;
  presentedPrefix: string | null;
  serverId: string | null;
  reason: KeyRefusalReason;
  count: number;
  at: string;
}

export async function insertRefusals(db: Queryable, entries: RefusalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `insert into platform_key_refusals (workspace_id, key_id, presented_prefix, server_id, reason, count, at)
     select x.workspace_id, x.key_id, x.presented_prefix, x.server_id, x.reason, x.count, x.at
       from json_to_recordset($1::json) as x(workspace_id uuid, key_id uuid, presented_prefix text, server_id uuid, reason text, count int, at timestamptz)
      where exists (select 1 from workspaces w where w.id = x.workspace_id)
        and (x.key_id is null or exists (select 1 from platform_keys k where k.id = x.key_id))`,
    [
      JSON.stringify(
        entries.map((e) => ({
          workspace_id: e.workspaceId,
          key_id: e.keyId,
          presented_prefix: e.presentedPrefix,
          server_id: e.serverId,
          reason: e.reason,
          count: e.count,
          at: e.at,
        })),
      ),
    ],
  );
}

interface RefusalRow {
  key_id: string | null;
  presented_prefix: string | null;
  server_id: string | null;
  reason: KeyRefusalReason;
  count: number;
  at: Date;
}

const REFUSALS_SHOWN = 20;

/** The newest refusals of each key of the workspace, and of keys it never issued. */
export async function listRefusals(
  db: Queryable,
  workspaceId: string,
): Promise<{ byKey: Map<string, KeyRefusalDto[]>; unknown: (KeyRefusalDto & { presentedPrefix: string | null })[] }> {
  const rows = await db.query<RefusalRow>(
    `select key_id, presented_prefix, server_id, reason, count, at from (
       select r.*, row_number() over (partition by r.key_id order by r.at desc, r.id desc) as n
         from platform_key_refusals r where r.workspace_id = $1
     ) ranked where n <= ${REFUSALS_SHOWN} order by at desc, key_id`,
    [workspaceId],
  );
  const byKey = new Map<string, KeyRefusalDto[]>();
  const unknown: (KeyRefusalDto & { presentedPrefix: string | null })[] = [];
  for (const row of rows) {
    const dto: KeyRefusalDto = {
      reason: row.reason,
      serverId: row.server_id,
      count: row.count,
      at: new Date(row.at).toISOString(),
    };
    if (row.key_id === null) unknown.push({ ...dto, presentedPrefix: row.presented_prefix });
    else byKey.set(row.key_id, [...(byKey.get(row.key_id) ?? []), dto]);
  }
  return { byKey, unknown };
}
