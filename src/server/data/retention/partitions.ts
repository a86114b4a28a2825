import type { Database, Queryable } from '../../db/database';

// The weekly partitions of the raw tables (migration 034, docs/scaling.md "Time partitions"):
// made ahead of the time they hold, dropped whole once every workspace's window has passed them.
// A partition of week W is named {table}_w{YYYYMMDD} after W's Monday (UTC); the one migration 034
// made of the rows before it is {table}_before_partitions; {table}_default takes any row no other
// partition does (a clock far off), so the recorder never fails for want of a partition.

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** Monday 1970-01-05 00:00 UTC: weeks are counted from a Monday. */
const MONDAY_ORIGIN_MS = 4 * DAY_MS;
const LOCK_ID = 7_373_033;

export const PARTITIONED_TABLES = [
  { table: 'messages', column: 'created_at' },
  { table: 'tool_calls', column: 'started_at' },
] as const;

export interface Partition {
  name: string;
  /** Exclusive upper bound; null for the default partition. */
  upperMs: number | null;
}

export function weekStart(ms: number): number {
  return MONDAY_ORIGIN_MS + Math.floor((ms - MONDAY_ORIGIN_MS) / WEEK_MS) * WEEK_MS;
}

function weekName(table: string, startMs: number): string {
  return `${table}_w${new Date(startMs).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** The table's partitions with their upper bounds (read by the database, whatever its time zone). */
export async function listPartitions(db: Queryable, table: string): Promise<Partition[]> {
  const rows = await db.query<{ name: string; bound: string }>(
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
     from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
     where p.relname = $1 order by c.relname`,
    [table],
  );
  const partitions: Partition[] = [];
  for (const row of rows) {
    const upper = /TO \('([^']+)'\)/.exec(row.bound)?.[1];
    if (!upper) {
      partitions.push({ name: row.name, upperMs: null });
      continue;
    }
    const [{ ms }] = await db.query<{ ms: number }>('select extract(epoch from $1::timestamptz)::float8 * 1000 as ms', [
      upper,
    ]);
    partitions.push({ name: row.name, upperMs: ms });
  }
  return partitions;
}

/**
 * Makes the partitions of the current week and the `weeksAhead` after it that do not exist yet.
 * A week some row of the default partition falls in is left out (creating it would fail): that
 * row stays where it is, correct, and only that week goes unpruned. Returns the partitions made.
 */
export async function ensureWeeklyPartitions(db: Database, now: Date, weeksAhead = 2): Promise<string[]> {
  return db.transaction(async (tx) => {
    // Two instances starting together would race on the same DDL.
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_ID]);
    const made: string[] = [];
    for (const { table, column } of PARTITIONED_TABLES) {
      const partitions = await listPartitions(tx, table);
      const names = new Set(partitions.map((p) => p.name));
      const covered = Math.max(0, ...partitions.map((p) => p.upperMs ?? 0));
      const first = weekStart(now.getTime());
      for (let start = first; start <= first + weeksAhead * WEEK_MS; start += WEEK_MS) {
        const name = weekName(table, start);
        if (names.has(name) || start + WEEK_MS <= covered) continue;
        const from = new Date(Math.max(start, covered)).toISOString();
        const to = new Date(start + WEEK_MS).toISOString();
        const [{ n }] = await tx.query<{ n: number }>(
          `select count(*)::int as n from ${table}_default where ${column} >= $1 and ${column} < $2`,
          [from, to],
        );
        if (n > 0) continue;
        await tx.query(`create table ${name} partition of ${table} for values from ('${from}') to ('${to}')`);
        made.push(name);
      }
    }
    return made;
  });
}

/** Drops every partition wholly older than `cutoff` (the longest window in force). Returns their names. */
export async function dropPartitionsBefore(db: Database, cutoff: Date): Promise<string[]> {
  const dropped: string[] = [];
  for (const { table } of PARTITIONED_TABLES) {
    for (const partition of await listPartitions(db, table)) {
      if (partition.upperMs === null || partition.upperMs > cutoff.getTime()) continue;
      await db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [LOCK_ID]);
        await tx.query(`drop table if exists ${partition.name}`);
      });
      dropped.push(partition.name);
    }
  }
  return dropped;
}
