import type { Database, Queryable } from '../../db/database';
import { RAW_RETENTION_DAYS, ROLLUP_RETENTION_DAYS } from '../../../contract/retention';
import { dropPartitionsBefore, ensureWeeklyPartitions } from './partitions';
import { DAY_MS, readAllRetentionPolicies } from './retentionPolicy';
import { sweepDeletedWorkspaces } from './workspacePurge';

// The expiry job's work (docs/operations.md "Retention"): raw data past each workspace's window
// and rollups past their grain's window are deleted. Raw rows go in bounded batches, so one run
// never holds a long transaction or a lock the recorder waits on; the raw tables' weeks past
// every window are dropped whole (partitions.ts). `now` is the caller's clock:
// the job passes the real time, tests pass the day they want.

export interface ExpiryCounts {
  /** Whole weekly partitions of messages and tool calls dropped. */
  partitionsDropped: string[];
  sessions: number;
  messages: number;
  toolCalls: number;
  rollupRows: number;
}

export interface ExpiryOptions {
  now: Date;
  operatorCapDays: number | null;
  /** Rows per delete statement. */
  batchRows?: number;
}

/** Deletes batch after batch until a batch comes back short; returns the rows deleted. */
async function deleteInBatches(db: Queryable, sql: string, params: unknown[], batchRows: number): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query<{ n: number }>(
      `with gone as (${sql} returning 1) select count(*)::int as n from gone`,
      [...params, batchRows],
    );
    const deleted = rows[0]?.n ?? 0;
    total += deleted;
    if (deleted < batchRows) return total;
  }
}

/** Raw data of one workspace older than `cutoff`: calls and messages by their time, sessions idle since before it. */
export async function expireRawData(
  db: Queryable,
  workspaceId: string,
  cutoff: Date,
  batchRows = 5_000,
): Promise<Omit<ExpiryCounts, 'rollupRows' | 'partitionsDropped'>> {
  const expire = (table: string, timeColumn: string) =>
    deleteInBatches(
      db,
      `delete from ${table} where id in
         (select id from ${table} where workspace_id = $1 and ${timeColumn} < $2 limit $3)`,
      [workspaceId, cutoff.toISOString()],
      batchRows,
    );
  const toolCalls = await expire('tool_calls', 'started_at');
  const messages = await expire('messages', 'created_at');
  // A session goes once nothing of it is newer than the cutoff; its remaining rows cascade.
  const sessions = await expire('sessions', 'last_activity_at');
  return { sessions, messages, toolCalls };
}

const ROLLUP_TABLES: { table: string; days: number }[] = [
  { table: 'traffic_minutes', days: ROLLUP_RETENTION_DAYS.minutes },
  { table: 'latency_minutes', days: ROLLUP_RETENTION_DAYS.minutes },
  { table: 'usage_minutes', days: ROLLUP_RETENTION_DAYS.minutes },
  { table: 'traffic_hours', days: ROLLUP_RETENTION_DAYS.hours },
  { table: 'latency_hours', days: ROLLUP_RETENTION_DAYS.hours },
  { table: 'traffic_days', days: ROLLUP_RETENTION_DAYS.days },
  { table: 'latency_days', days: ROLLUP_RETENTION_DAYS.days },
  { table: 'latency_weeks', days: ROLLUP_RETENTION_DAYS.days },
];

/** Rollup rows past their grain's window, for every workspace at once (the windows are the same for all). */
export async function expireRollups(db: Queryable, now: Date, batchRows = 5_000): Promise<number> {
  let total = 0;
  for (const { table, days } of ROLLUP_TABLES) {
    const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
    total += await deleteInBatches(
      db,
      `delete from ${table} where ctid in (select ctid from ${table} where bucket < $1 limit $2)`,
      [cutoff],
      batchRows,
    );
  }
  return total;
}

/**
 * One run over every workspace. Partitions first: the weeks ahead are made, and the weeks past the
 * longest window in force are dropped whole; then what is left past a shorter window goes row by row.
 */
export async function expireRecordedData(db: Database, options: ExpiryOptions): Promise<ExpiryCounts> {
  const totals: ExpiryCounts = { partitionsDropped: [], sessions: 0, messages: 0, toolCalls: 0, rollupRows: 0 };
  const policies = await readAllRetentionPolicies(db, options.operatorCapDays);
  const planLongest = Math.min(
    Math.max(...Object.values(RAW_RETENTION_DAYS)),
    options.operatorCapDays ?? Number.POSITIVE_INFINITY,
  );
  const longest = policies.length > 0 ? Math.max(...policies.map((p) => p.rawDays)) : planLongest;
  await ensureWeeklyPartitions(db, options.now);
  totals.partitionsDropped = await dropPartitionsBefore(db, new Date(options.now.getTime() - longest * DAY_MS));
  for (const policy of policies) {
    const cutoff = new Date(options.now.getTime() - policy.rawDays * DAY_MS);
    const counts = await expireRawData(db, policy.workspaceId, cutoff, options.batchRows);
    totals.sessions += counts.sessions;
    totals.messages += counts.messages;
    totals.toolCalls += counts.toolCalls;
  }
  totals.rollupRows = await expireRollups(db, options.now, options.batchRows);
  await sweepDeletedWorkspaces(db, options.now);
  return totals;
}
