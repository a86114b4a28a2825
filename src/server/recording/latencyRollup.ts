import type { TrafficIncrement } from './trafficRollup';
import { WEEK_ORIGIN_MS, type LatencyGrain } from './trafficSql';

const WEEK_MS = 7 * 86_400_000;

/** The Monday (00:00 UTC) starting the week of an ISO day ('YYYY-MM-DD'), as ISO; the few days of a write, each once. */
const weekOfDay = new Map<string, string>();
function weekOf(day: string): string {
  let week = weekOfDay.get(day);
  if (week === undefined) {
    const ms = Date.parse(`${day}T00:00:00.000Z`);
    week = new Date(WEEK_ORIGIN_MS + Math.floor((ms - WEEK_ORIGIN_MS) / WEEK_MS) * WEEK_MS).toISOString();
    if (weekOfDay.size > 1000) weekOfDay.clear();
    weekOfDay.set(day, week);
  }
  return week;
}

// The sketch-only rollup of one write (migration 021, docs/analytics.md "Rollups"): the latency
// sketches of the write's minute rows merged per workspace × server × bucket (tool_name null) and
// per workspace × server × tool × bucket, at the minute, hour, day and week grains. Percentiles not
// filtered by client read these: 4–32× fewer sketches than the full traffic key. Derived from the
// minute rows a write takes (carried ones included), so a write put back is derived again whole.

/** One sketch row as stored: zeros, and the bins (ascending) with their counts. */
export interface LatencyIncrement {
  workspace_id: string;
  bucket: string;
  server_id: string;
  tool_name: string | null;
  zeros: number;
  bins: number[];
  counts: number[];
}

export type LatencyBatch = Record<LatencyGrain, LatencyIncrement[]>;

interface Summing {
  row: LatencyIncrement;
  bins: Map<number, number>;
}

/** The minute rows' sketches summed per server and per tool, at the four grains. */
export function latencyRows(minutes: readonly TrafficIncrement[]): LatencyBatch {
  const grains = [new Map<string, Summing>(), new Map<string, Summing>(), new Map<string, Summing>(), new Map<string, Summing>()];
  for (const minute of minutes) {
    if (minute.tool_name === '' || (minute.latency_zeros === 0 && minute.latency_bins.length === 0)) continue;
    const day = minute.bucket.slice(0, 10);
    const buckets = [minute.bucket, minute.bucket.slice(0, 13) + ':00:00.000Z', day + 'T00:00:00.000Z', weekOf(day)];
    for (let g = 0; g < 4; g++) {
      add(grains[g], minute, buckets[g], minute.tool_name);
      add(grains[g], minute, buckets[g], null);
    }
  }
  const [m, h, d, w] = grains.map(finish);
  return { minutes: m, hours: h, days: d, weeks: w };
}

function add(rows: Map<string, Summing>, minute: TrafficIncrement, bucket: string, tool: string | null): void {
  const id = `${minute.workspace_id}|${bucket}|${minute.server_id}|${tool ?? '\u0000'}`;
  let summing = rows.get(id);
  if (!summing) {
    summing = { row: { workspace_id: minute.workspace_id, bucket, server_id: minute.server_id, tool_name: tool, zeros: 0, bins: [], counts: [] }, bins: new Map() };
    rows.set(id, summing);
  }
  summing.row.zeros += minute.latency_zeros;
  const { latency_bins: bins, latency_counts: counts } = minute;
  for (let i = 0; i < bins.length; i++) summing.bins.set(bins[i], (summing.bins.get(bins[i]) ?? 0) + counts[i]);
}

function finish(rows: Map<string, Summing>): LatencyIncrement[] {
  return [...rows.values()].map(({ row, bins }) => {
    const indexes = [...bins.keys()].sort((a, b) => a - b);
    return { ...row, bins: indexes, counts: indexes.map((index) => bins.get(index) as number) };
  });
}
