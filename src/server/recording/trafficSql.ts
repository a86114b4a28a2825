import type { TrafficBatch } from './trafficRows';

// The statements that add a write's traffic rollup (trafficRollup.ts) to the three grains, its
// sketch-only rollup (latencyRollup.ts) likewise, and store the tool lists. They are parts of the batch's single statement (batchWriter.ts), each reading one
// JSON text of rows: a write's few rollup rows cost less as JSON than as one array per column.

type Columns = readonly (readonly [name: string, type: string])[];

export const TRAFFIC_COLUMNS: Columns = [
  ['workspace_id', 'uuid'],
  ['bucket', 'timestamptz'],
  ['server_id', 'uuid'],
  ['tool_name', 'text'],
  ['client_name', 'text'],
  ['platform_key_id', 'uuid'],
  ['calls', 'int'],
  ['protocol_errors', 'int'],
  ['server_errors', 'int'],
  ['tool_errors', 'int'],
  ['sessions', 'int'],
  ['argument_tokens', 'bigint'],
  ['result_tokens', 'bigint'],
  ['definition_tokens', 'bigint'],
  ['duration_sum_ms', 'bigint'],
  ['duration_max_ms', 'int'],
  ['last_call_at', 'timestamptz'],
  ['latency_zeros', 'int'],
  ['latency_bins', 'int[]'],
  ['latency_counts', 'int[]'],
];

export const TOOL_LIST_COLUMNS: Columns = [
  ['server_id', 'uuid'],
  ['workspace_id', 'uuid'],
  ['list_hash', 'text'],
  ['definition_tokens', 'int'],
  ['tools', 'jsonb'],
  ['listed_at', 'timestamptz'],
];

export const TRAFFIC_TABLES = { minutes: 'traffic_minutes', hours: 'traffic_hours', days: 'traffic_days' } as const;
export type TrafficGrain = keyof typeof TRAFFIC_TABLES;

/**
 * The sketch-only rollup (latencyRollup.ts, migration 021): per server and per tool, with a week
 * grain besides (weeks from Monday 00:00 UTC): a 90-day range reads ~13 weeks instead of 89 days
 * of its largest sketches.
 */
export const LATENCY_TABLES = {
  minutes: 'latency_minutes',
  hours: 'latency_hours',
  days: 'latency_days',
  weeks: 'latency_weeks',
} as const;
export type LatencyGrain = keyof typeof LATENCY_TABLES;
export const LATENCY_GRAINS = Object.keys(LATENCY_TABLES) as LatencyGrain[];
/** Weeks start on Mondays: 1970-01-05 was one. */
export const WEEK_ORIGIN_MS = 4 * 86_400_000;
/** The sums a per-server / per-tool row carries beside its sketch (migration 022), named as in the traffic rows. */
export const SUM_COLUMNS: Columns = [
  ['calls', 'int'],
  ['protocol_errors', 'int'],
  ['server_errors', 'int'],
  ['tool_errors', 'int'],
  ['sessions', 'int'],
  ['argument_tokens', 'bigint'],
  ['result_tokens', 'bigint'],
  ['definition_tokens', 'bigint'],
  ['duration_max_ms', 'int'],
  ['last_call_at', 'timestamptz'],
];
export const LATENCY_COLUMNS: Columns = [
  ['workspace_id', 'uuid'],
  ['bucket', 'timestamptz'],
  ['server_id', 'uuid'],
  ['tool_name', 'text'],
  ...SUM_COLUMNS,
  ['zeros', 'int'],
  ['bins', 'int[]'],
  ['counts', 'int[]'],
];

/** The upsert of one grain's per-server / per-tool rows: sums added, counts of equal bins added, bins kept ascending. */
export function upsertLatencySql(grain: LatencyGrain, source: string): string {
  const table = LATENCY_TABLES[grain];
  const names = LATENCY_COLUMNS.map(([name]) => name).join(', ');
  return `insert into ${table} (${names})
  select ${names} from ${source}
  on conflict (workspace_id, bucket, server_id, tool_name) do update set
    ${summedIn(
      table,
      summed.filter((name) => name !== 'duration_sum_ms'),
    )},
    duration_max_ms = greatest(${table}.duration_max_ms, excluded.duration_max_ms),
    last_call_at = greatest(${table}.last_call_at, excluded.last_call_at),
    zeros = ${table}.zeros + excluded.zeros,
    ${mergedBinsSql(table, 'bins', 'counts')}`;
}

const summedIn = (table: string, names: readonly string[]) =>
  names.map((name) => `${name} = ${table}.${name} + excluded.${name}`).join(',\n    ');

/**
 * A write's minute increments, stored as they are (no conflict to resolve, no sketch to merge) in
 * the statement that stores their calls; the fold (trafficFold.ts) sums them into the grains.
 */
export function insertPendingSql(source: string): string {
  const names = TRAFFIC_COLUMNS.map(([name]) => name).join(', ');
  return `insert into traffic_pending (${names}) select ${names} from ${source}`;
}

/**
 * `(bins, counts) = …` of an upsert: the stored sketch's and the excluded row's bins merged, counts
 * of equal bins added, bins kept ascending (latencySketch.ts). Arrays rather than jsonb: the jsonb
 * merge (jsonb_each of both, jsonb_object_agg) was the larger part of the rollup upserts' cost
 * (docs/analytics.md "Rollups").
 */
export function mergedBinsSql(table: string, bins: string, counts: string): string {
  return `(${bins}, ${counts}) = (select coalesce(array_agg(k order by k), '{}'), coalesce(array_agg(n order by k), '{}')
      from (select k, sum(n)::int as n from unnest(${table}.${bins} || excluded.${bins}, ${table}.${counts} || excluded.${counts}) as u(k, n) group by k) merged)`;
}

const summed = [
  'calls',
  'protocol_errors',
  'server_errors',
  'tool_errors',
  'sessions',
  'argument_tokens',
  'result_tokens',
  'definition_tokens',
  'duration_sum_ms',
];

/**
 * The upsert of one grain; `source` is the rows' source (a json_to_recordset over $1, with the
 * batch's rows marker), given by the batch writer so a guarded batch can add its condition.
 */
export function upsertTrafficSql(grain: TrafficGrain, source: string): string {
  const table = TRAFFIC_TABLES[grain];
  const names = TRAFFIC_COLUMNS.map(([name]) => name).join(', ');
  return `insert into ${table} (${names})
  select ${names} from ${source}
  on conflict (workspace_id, bucket, server_id, tool_name, client_name, platform_key_id) do update set
    ${summedIn(table, summed)},
    duration_max_ms = greatest(${table}.duration_max_ms, excluded.duration_max_ms),
    last_call_at = greatest(${table}.last_call_at, excluded.last_call_at),
    latency_zeros = ${table}.latency_zeros + excluded.latency_zeros,
    ${mergedBinsSql(table, 'latency_bins', 'latency_counts')}`;
}

/** A server's newest list replaces the one held (an older list written late does not). */
export function upsertToolListsSql(source: string): string {
  const names = TOOL_LIST_COLUMNS.map(([name]) => name).join(', ');
  return `insert into server_tool_lists (${names})
  select ${names} from (select * from ${source}) r
  where exists (select 1 from servers s where s.id = r.server_id)
  on conflict (server_id) do update set list_hash = excluded.list_hash, definition_tokens = excluded.definition_tokens,
    tools = excluded.tools, listed_at = excluded.listed_at
  where server_tool_lists.listed_at <= excluded.listed_at`;
}

export function isEmptyTraffic(traffic: TrafficBatch | null): boolean {
  return !traffic || (traffic.minutes.length === 0 && traffic.toolLists.length === 0);
}
