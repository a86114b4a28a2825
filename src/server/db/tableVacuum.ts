import type { Queryable } from './database';

// PGlite runs PostgreSQL in single-user mode, without autovacuum (see also tableStatistics.ts).
// Two of autovacuum's jobs matter to an embedded install that records for months:
// - Space: an updated or deleted row leaves its old version behind until a VACUUM marks the space
//   reusable. Sessions are rewritten every second while active, pending calls when answered,
//   usage rows at every flush: without VACUUM the tables and their indexes only grow.
// - Transaction ids: PostgreSQL numbers transactions with 32-bit ids and refuses every write once
//   a table holds a row about two billion transactions old that no VACUUM has frozen. Every
//   recorder flush is a transaction (up to 20 a second under load): about three years of steady
//   recording, with warnings only in the database's own log before.
// So on PGlite the app vacuums every table, one statement per table (requests and recorder writes
// interleave between them), with FREEZE: each run freezes the pages written since the last one and
// marks them all-frozen, so later runs skip them, and no run ever has to freeze a whole table at
// once. A run costs about what was written or changed since the one before (docs/operations.md).
// PostgreSQL's autovacuum does all of this itself.

/** Vacuums (and freezes) every table of the current schema; returns their names. */
export async function vacuumTables(db: Queryable): Promise<string[]> {
  const tables = await db.query<{ name: string }>(
    `select c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
      order by c.relname`,
  );
  for (const { name } of tables) await db.query(`vacuum (freeze) "${name.replaceAll('"', '""')}"`);
  return tables.map((row) => row.name);
}
