import type { Queryable } from '../../db/database';
import { referencedKeyNames } from '../../../contract/keys';
import { decryptCredentials } from '../servers/credentials';
import { keyHostOf } from './keyHosts';

/**
 * Keys from before migration 027 have no hosts (null). Each is bound, once, to the hosts of the
 * servers whose headers reference it now — what already worked keeps working, nothing new is
 * allowed; a key no server uses gets none (an owner adds them). Returns how many were bound.
 */
export async function bindLegacyKeyHosts(db: Queryable, secret: string): Promise<number> {
  const keys = await db.query<{ id: string; workspace_id: string; name: string }>(
    'select id, workspace_id, name from workspace_keys where allowed_hosts is null',
  );
  if (keys.length === 0) return 0;
  const servers = await db.query<{ workspace_id: string; url: string; credentials_enc: string }>(
    `select workspace_id, url, credentials_enc from servers
     where credentials_enc is not null and workspace_id = any($1::uuid[])`,
    [[...new Set(keys.map((k) => k.workspace_id))]],
  );
  const hosts = new Map<string, Set<string>>();
  for (const server of servers) {
    let headers: Record<string, string>;
    try {
      headers = decryptCredentials(server.credentials_enc, secret);
    } catch {
      continue;
    }
    const host = keyHostOf(server.url);
    if (!host) continue;
    for (const name of Object.values(headers).flatMap(referencedKeyNames)) {
      const id = `${server.workspace_id}/${name}`;
      hosts.set(id, (hosts.get(id) ?? new Set()).add(host));
    }
  }
  for (const key of keys) {
    await db.query('update workspace_keys set allowed_hosts = $2 where id = $1 and allowed_hosts is null', [
      key.id,
      [...(hosts.get(`${key.workspace_id}/${key.name}`) ?? [])].sort(),
    ]);
  }
  return keys.length;
}
