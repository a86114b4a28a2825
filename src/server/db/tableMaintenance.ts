import type { Queryable } from './database';

// PGlite runs PostgreSQL in single-user mode, without autovacuum. Its three jobs matter to an
// embedded install that records for months, so on PGlite the app does them itself
// (docs/operations.md, "Vacuum and table statistics on PGlite"):
// - Statistics: nothing ANALYZEs a table, and the planner works from default guesses. Measured on
//   100,000 sessions (docs/benchmarks.md "Table statistics"): list pages and filters 2–5× slower, a
//   common-word search 2.5× slower than after an ANALYZE. A table is analyzed once it has grown by
//   a fifth (and 8 pages) since this process last analyzed it — autovacuum's own rule, in pages.
// - Space: an updated or deleted row leaves its old version behind until a VACUUM marks the space
//   reusable. Sessions are rewritten every second while active, pending calls when answered,
//   usage rows at every flush, and every ANALYZE rewrites pg_statistic.
// - Transaction ids: they are 32-bit, and a row must be frozen by VACUUM before the ids wrap around
//   (about two billion transactions on). Every recorder flush is a transaction, up to 20 a second:
//   about three years of steady recording. Under a postmaster PostgreSQL would stop taking writes
//   near that point; in single-user mode it only warns, and rows never frozen — the migrations'
//   catalog rows first — would then read as written in the future, and vanish.
// So every table is vacuumed WITH FREEZE, the system catalogs and information_schema's too (the
// database's frozen horizon is the oldest of all its tables'), one statement per table so requests and recorder writes run in
// between. FREEZE freezes the pages written since the last run and marks them all-frozen, so later
// runs skip them: a run costs about what changed since the one before. PostgreSQL's autovacuum
// does all of this itself.

export interface MaintenanceResult {
  vacuumed: string[];
  analyzed: string[];
  /** Tables whose statement failed (the run goes on with the others). */
  failed: { table: string; error: unknown }[];
}

interface TableSize {
  name: string;
  schema: string;
  /** In the app's schema (the others — catalogs, information_schema — are vacuumed, not analyzed). */
  own: boolean;
  pages: number;
  /** pg_class.relpages: the size the last VACUUM or ANALYZE saw (-1 or 0: never). */
  relpages: number;
}

export class TableMaintenance {
  /** Pages of each table when this process last analyzed it, or first saw it (VACUUM updates relpages too). */
  private readonly analyzedAtPages = new Map<string, number>();
  private running: Promise<MaintenanceResult> | null = null;
  private stopped = false;

  constructor(private readonly db: Queryable) {}

  /** One run (a run already under way is joined, not doubled). */
  run(): Promise<MaintenanceResult> {
    if (this.stopped) return Promise.resolve({ vacuumed: [], analyzed: [], failed: [] });
    if (!this.running) this.running = this.vacuumAndAnalyze().finally(() => (this.running = null));
    return this.running;
  }

  /** No table is started after this; resolves when the statement under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  private async vacuumAndAnalyze(): Promise<MaintenanceResult> {
    const tables = await this.db.query<TableSize>(
      `select c.relname as name, n.nspname as schema, n.nspname = current_schema() as own, c.relpages as relpages,
              (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'm') and c.relpersistence <> 't'
        order by n.nspname <> current_schema(), n.nspname, c.relname`,
    );
    const result: MaintenanceResult = { vacuumed: [], analyzed: [], failed: [] };
    for (const table of tables) {
      if (this.stopped) break;
      const key = `${table.schema}.${table.name}`;
      // First seen: growth counts from what PostgreSQL last measured (its last VACUUM or ANALYZE,
      // 0 for a new table) — taken now, before this run's VACUUM overwrites it with today's size.
      let analyzedAt = this.analyzedAtPages.get(key);
      if (analyzedAt === undefined) this.analyzedAtPages.set(key, (analyzedAt = Math.max(table.relpages, 0)));
      const grown = table.own && table.pages > analyzedAt * 1.2 + 8;
      try {
        await this.db.query(`vacuum (freeze${grown ? ', analyze' : ''}) ${quoted(table.schema)}.${quoted(table.name)}`);
      } catch (error) {
        result.failed.push({ table: key, error });
        continue;
      }
      result.vacuumed.push(table.name);
      if (grown) {
        this.analyzedAtPages.set(key, table.pages);
        result.analyzed.push(table.name);
      }
    }
    return result;
  }
}

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
