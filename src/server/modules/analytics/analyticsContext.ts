import type { Database, Queryable } from '../../db/database';
import type { EffectivePrices } from '../../../contract/pricing';
import type { AnalyticsRange } from '../../../contract/analytics';
import { readPrices } from './pricingStore';
import { RollupScope, type RollupFilters } from './rollupScope';
import { resolveRange, type TimeRange } from './timeRange';
import { readRetentionPolicy } from '../../data/retention/retentionPolicy';
import { rangeRetention } from '../../data/retention/rangeRetention';

// What every analytics call starts from: the workspace, its filters and prices, the range, and the
// names of its servers (rollups keep ids; a deleted server's rows read under a placeholder name).

export const DELETED_SERVER_NAME = 'Deleted server';

export interface AnalyticsContext {
  db: Queryable;
  workspaceId: string;
  filters: RollupFilters;
  prices: EffectivePrices;
  range: TimeRange;
  nowMs: number;
  serverName(serverId: string): string;
  /** A fresh parameter list for one statement (PostgreSQL refuses parameters a statement does not use). */
  scope(): RollupScope;
}

/**
 * How analytics reads run. On PostgreSQL each read is its own transaction with parallel workers
 * and JIT compilation off: the reads cover a few thousand rollup rows, and the planner, seeing
 * large tables, chose parallel plans whose workers took longer to start (~13 ms on a busy
 * machine) than the work they shared, and JIT-compiled the session ranking for longer than it
 * runs (docs/benchmarks.md "Analytics at 10 million calls"). PGlite has neither.
 */
export function analyticsReads(db: Queryable): Queryable {
  const database = db as Partial<Database>;
  if (database.engine !== 'postgres' || !database.transaction) return db;
  const transaction = database.transaction.bind(db);
  return {
    query: <T>(sql: string, params: unknown[] = []) =>
      transaction(async (tx) => {
        await tx.query(
          `select set_config('max_parallel_workers_per_gather', '0', true), set_config('jit', 'off', true)`,
        );
        return tx.query<T>(sql, params);
      }),
  };
}

export async function analyticsContext(
  db: Queryable,
  workspaceId: string,
  query: { range?: AnalyticsRange; from?: string; to?: string } & RollupFilters,
  nowMs = Date.now(),
  /** Given (null: no cap), the range says what of it is kept; the dashboard's own reads leave it out. */
  operatorCapDays?: number | null,
): Promise<AnalyticsContext> {
  db = analyticsReads(db);
  const [prices, retention, servers] = await Promise.all([
    readPrices(db, workspaceId),
    operatorCapDays === undefined ? undefined : readRetentionPolicy(db, workspaceId, operatorCapDays),
    db.query<{ id: string; name: string }>('select id, name from servers where workspace_id = $1', [workspaceId]),
  ]);
  const names = new Map(servers.map((server) => [server.id, server.name]));
  const resolved = resolveRange(query, nowMs);
  // What of the range is still kept (docs/analytics.md "Retention"): said in every answer's range.
  const range = retention ? { ...resolved, retention: rangeRetention(resolved, retention.rawDays, nowMs) } : resolved;
  const filters: RollupFilters = {
    serverId: query.serverId,
    tool: query.tool,
    client: query.client,
    keyId: query.keyId,
  };
  return {
    db,
    workspaceId,
    filters,
    prices,
    range,
    nowMs,
    serverName: (id) => names.get(id) ?? DELETED_SERVER_NAME,
    // A preset ends after now: its last, unfinished day or week may be read as one row (readableEnd).
    scope: () => new RollupScope(workspaceId, filters, prices, range.preset ? nowMs : Number.POSITIVE_INFINITY),
  };
}
