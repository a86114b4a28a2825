import type { Queryable } from '../../db/database';
import { referencedKeyNames } from '../../../contract/keys';
import { decryptCredentials } from '../../data/servers/credentials';

/** Workspace key name → the servers whose upstream headers reference it as {{key:NAME}}. */
export async function serversByReferencedKey(
  db: Queryable,
  workspaceId: string,
  secret: string,
): Promise<Map<string, { id: string; name: string }[]>> {
  const rows = await db.query<{ id: string; name: string; credentials_enc: string | null }>(
    'select id, name, credentials_enc from servers where workspace_id = $1 and credentials_enc is not null order by name, id',
    [workspaceId],
  );
  const byKey = new Map<string, { id: string; name: string }[]>();
  for (const row of rows) {
    let headers: Record<string, string>;
    try {
      headers = decryptCredentials(row.credentials_enc, secret);
    } catch {
      continue;
    }
    const names = new Set(Object.values(headers).flatMap(referencedKeyNames));
    for (const name of names) byKey.set(name, [...(byKey.get(name) ?? []), { id: row.id, name: row.name }]);
  }
  return byKey;
}

/** The names a set of upstream headers references that the workspace has no key for. */
export async function unknownKeyReferences(
  db: Queryable,
  workspaceId: string,
  headers: Record<string, string>,
): Promise<string[]> {
  const names = [...new Set(Object.values(headers).flatMap(referencedKeyNames))];
  if (names.length === 0) return [];
  const rows = await db.query<{ name: string }>(
    'select name from workspace_keys where workspace_id = $1 and name = any($2::text[])',
    [workspaceId, names],
  );
  const known = new Set(rows.map((r) => r.name));
  return names.filter((name) => !known.has(name));
}
