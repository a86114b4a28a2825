import type { Queryable } from './database';

// PGlite runs PostgreSQL in single-user mode: there is no autovacuum, so nothing ever ANALYZEs a
// table, and the planner works from default guesses for every column. Measured on 100,000 sessions
// (scripts/bench-sessions.mjs, docs/benchmarks.md "Table statistics"): list pages and filters 2–5×
// slower, a common-word search 2.5× slower, than after an ANALYZE. The app therefore analyzes, on
// PGlite, every table that has grown by a fifth (and 8 pages) since its last ANALYZE — the spirit
// of autovacuum's own rule — one table per statement, so requests and recorder writes interleave.
// PostgreSQL's autovacuum does this itself.

/** Analyzes the tables grown since their last ANALYZE; returns their names. */
export async function analyzeGrownTables(db: Queryable): Promise<string[]> {
  const grown = await db.query<{ name: string }>(
    `select c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages, 0) * 1.2 + 8
      order by c.relname`,
  );
  for (const { name } of grown) await db.query(`analyze "${name.replaceAll('"', '""')}"`);
  return grown.map((row) => row.name);
}
