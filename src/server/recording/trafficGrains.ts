import { latencyRows, type LatencyBatch } from './latencyRollup';
import { LatencySketch } from './latencySketch';
import type { TrafficIncrement } from './trafficRows';
import { addCallCounts } from './callCounts';

// Minute increments of the traffic rollup summed into the rows of every grain (docs/analytics.md
// "Rollups"): the minute, hour and day rows at the full key, and the per-server / per-tool rows
// (latencyRollup.ts) at the minute, hour, day and week grains. The recorder's writes store minute
// increments only (traffic_pending, in the statement that stores their calls); the fold
// (trafficFold.ts) sums what is pending into the grains with this.

/** A row being summed: its counts, and its latency as a sketch. */
export interface Building extends Omit<TrafficIncrement, 'latency_zeros' | 'latency_bins' | 'latency_counts'> {
  sketch: LatencySketch;
}

export type TrafficKey = Pick<
  TrafficIncrement,
  'workspace_id' | 'server_id' | 'tool_name' | 'client_name' | 'platform_key_id'
>;

export function zeroCounts() {
  return {
    calls: 0,
    protocol_errors: 0,
    server_errors: 0,
    tool_errors: 0,
    sessions: 0,
    argument_tokens: 0,
    result_tokens: 0,
    definition_tokens: 0,
    duration_sum_ms: 0,
    duration_max_ms: 0,
    last_call_at: null as string | null,
  };
}

type Counts = ReturnType<typeof zeroCounts>;

export function addCounts(into: Counts, from: Counts): void {
  addCallCounts(into, from);
  into.duration_sum_ms += from.duration_sum_ms;
}

/** The row of `key` and `bucket` in `rows`, created empty the first time. */
export function rowOf(rows: Map<string, Building>, key: TrafficKey, bucket: string): Building {
  const id = `${key.workspace_id}|${bucket}|${key.server_id}|${key.tool_name}|${key.client_name}|${key.platform_key_id ?? ''}`;
  let row = rows.get(id);
  if (!row) {
    row = {
      workspace_id: key.workspace_id,
      server_id: key.server_id,
      tool_name: key.tool_name,
      client_name: key.client_name,
      platform_key_id: key.platform_key_id,
      bucket,
      ...zeroCounts(),
      sketch: new LatencySketch(),
    };
    rows.set(id, row);
  }
  return row;
}

export function finish(row: Building): TrafficIncrement {
  const { sketch, ...rest } = row;
  const { zeros, bins, counts } = sketch.toArrays();
  return { ...rest, latency_zeros: zeros, latency_bins: bins, latency_counts: counts };
}

/** The minute rows summed into coarser buckets: the ISO bucket cut to `prefix` characters (13: hour, 10: day). */
function derive(minutes: readonly Building[], prefix: 10 | 13): TrafficIncrement[] {
  const suffix = prefix === 13 ? ':00:00.000Z' : 'T00:00:00.000Z';
  const rows = new Map<string, Building>();
  for (const minute of minutes) {
    const row = rowOf(rows, minute, minute.bucket.slice(0, prefix) + suffix);
    addCounts(row, minute);
    row.sketch.merge(minute.sketch);
  }
  return [...rows.values()].map(finish);
}

/** Every grain's rows of some minute increments (several of one key and minute are summed). */
export interface GrainRows {
  minutes: TrafficIncrement[];
  hours: TrafficIncrement[];
  days: TrafficIncrement[];
  /** The per-server and per-tool rows, weeks included. */
  latency: LatencyBatch;
}

export function rollupGrains(increments: readonly TrafficIncrement[]): GrainRows {
  const minutes = new Map<string, Building>();
  for (const increment of increments) {
    const row = rowOf(minutes, increment, increment.bucket);
    addCounts(row, increment);
    row.sketch.addArrays(increment.latency_zeros, increment.latency_bins, increment.latency_counts);
  }
  const building = [...minutes.values()];
  const finished = building.map(finish);
  return { minutes: finished, hours: derive(building, 13), days: derive(building, 10), latency: latencyRows(finished) };
}
