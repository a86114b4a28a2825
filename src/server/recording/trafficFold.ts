import type { Database } from '../db/database';
import type { TrafficIncrement } from './trafficRows';
import { rollupGrains } from './trafficGrains';
import {
  LATENCY_COLUMNS,
  LATENCY_GRAINS,
  TRAFFIC_COLUMNS,
  TRAFFIC_TABLES,
  upsertLatencySql,
  upsertTrafficSql,
  type TrafficGrain,
} from './trafficSql';

// The fold (docs/analytics.md "Rollups"): the minute increments the recorder's writes stored in
// traffic_pending, summed into the minute, hour and day rows and the per-server / per-tool rows
// of every grain. One transaction takes the pending rows (deleting them) and adds their sums, so
// a fold that fails or a process killed part way leaves them pending, whole, and a fold never
// counts a row twice: two instances folding at once take different rows (skip locked). Reads add
// the pending rows of their range to the folded ones, so nothing waits for a fold to be seen.
// Why: the same hour, day and week rows were rewritten by every write (their sketches merged in
// SQL each time); folded every few seconds, they are rewritten once for many writes.

/** Most pending rows one fold takes (a backlog is folded in several). */
const FOLD_ROWS = 5000;

type Row = Omit<TrafficIncrement, 'bucket' | 'last_call_at'> & {
  bucket: Date | string;
  last_call_at: Date | string | null;
};

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** Folds at most `maxRows` pending rows; returns how many it folded. */
export async function foldPendingTraffic(db: Database, maxRows = FOLD_ROWS): Promise<number> {
  return db.transaction(async (tx) => {
    // Numbers as float8 (bigint would come back as text), the arrays as the drivers parse int[].
    const taken = await tx.query<Row>(
      `delete from traffic_pending where ctid in (select ctid from traffic_pending limit $1 for update skip locked)
       returning workspace_id::text, bucket, server_id::text, tool_name, client_name, platform_key_id::text, calls, protocol_errors, server_errors,
         tool_errors, sessions, argument_tokens::float8, result_tokens::float8, definition_tokens::float8, duration_sum_ms::float8,
         duration_max_ms, last_call_at, latency_zeros, latency_bins, latency_counts`,
      [maxRows],
    );
    if (taken.length === 0) return 0;
    const increments: TrafficIncrement[] = taken.map((row) => ({
      ...row,
      bucket: iso(row.bucket),
      last_call_at: row.last_call_at === null ? null : iso(row.last_call_at),
    }));
    const grains = rollupGrains(increments);
    // One statement for every grain; rows in key order, so two folds at once lock shared rows in the same order.
    const parts: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (source: string) => string, rows: readonly object[], columns: typeof TRAFFIC_COLUMNS) => {
      if (rows.length === 0) return;
      params.push(JSON.stringify(sortedByKey(rows)));
      parts.push(
        `w${parts.length} as (${sql(`json_to_recordset($${params.length}::json) as x(${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`)})`,
      );
    };
    for (const grain of Object.keys(TRAFFIC_TABLES) as TrafficGrain[])
      add((source) => upsertTrafficSql(grain, source), grains[grain], TRAFFIC_COLUMNS);
    for (const grain of LATENCY_GRAINS)
      add((source) => upsertLatencySql(grain, source), grains.latency[grain], LATENCY_COLUMNS);
    await tx.query(`with ${parts.join(',\n')} select 1`, params);
    return taken.length;
  });
}

function sortedByKey<T extends object>(rows: readonly T[]): T[] {
  const keyOf = (row: T) => {
    const r = row as unknown as Record<string, unknown>;
    return [
      r.workspace_id,
      r.bucket,
      r.server_id,
      r.tool_name ?? '\u0000',
      r.client_name ?? '',
      r.platform_key_id ?? '',
    ]
      .map((part) => String(part))
      .join('|');
  };
  return [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/** Folds until nothing is pending (at shutdown, after an explicit flush). */
export async function foldAllPendingTraffic(db: Database): Promise<void> {
  while ((await foldPendingTraffic(db)) === FOLD_ROWS);
}

/**
 * When an instance folds: a few seconds after a write stored pending increments (one fold for all
 * the writes of those seconds), and at once when asked (an explicit flush, shutdown). Folds never
 * overlap within an instance; a failed fold leaves its rows pending for the next one.
 */
export class FoldSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly everyMs: number,
    private readonly log?: { error(details: object, message: string): void },
  ) {}

  /** A write stored pending increments: they are folded within `everyMs`. */
  noteWritten(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, this.everyMs);
    this.timer.unref();
  }

  /** Folds everything pending now (waits for a fold already running). */
  now(): Promise<void> {
    this.stop();
    return this.run();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): Promise<void> {
    this.running = this.running.then(() =>
      foldAllPendingTraffic(this.db).catch((error: unknown) =>
        this.log?.error({ err: error }, 'traffic rollup fold failed: its rows stay pending for the next fold'),
      ),
    );
    return this.running;
  }
}
