import type { Queryable } from '../../../src/server/db/database';

/** A digest of every table's content: equal digests mean nothing was written. */
export async function databaseFingerprint(db: Queryable): Promise<Record<string, string>> {
  const tables = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    const rows = await db.query<{ digest: string | null }>(
      `select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as digest from "${table_name}" r`,
    );
    out[table_name] = rows[0].digest ?? '';
  }
  return out;
}
