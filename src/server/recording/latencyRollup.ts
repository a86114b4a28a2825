import type { TrafficIncrement } from './trafficRows';
import { addCallCounts, type CallCounts } from './callCounts';
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

// The per-server / per-tool rollup (migrations 021, 022, 023; docs/analytics.md "Rollups"): the
// minute rows' latency sketches and sums merged per workspace × server × bucket (tool_name null),
// per workspace × server × tool × bucket (tool '' too: sessions and definitions) and per
// workspace × bucket (server_id and tool_name null: all servers, since 023), at the minute, hour,
// day and week grains. Views not filtered by client read these: 4–32× fewer rows than the full
// traffic key, and a view over all servers one row per bucket. Derived by the fold
// (trafficFold.ts) from the pending minute increments.

/** One row as stored: the sums, the latest call, and the sketch (zeros, bins ascending, their counts). */
export interface LatencyIncrement extends CallCounts {
  workspace_id: string;
  bucket: string;
  /** null: the workspace's row (all servers; tool_name null too). */
  server_id: string | null;
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

/** The minute rows summed per tool, per server and per workspace, at the four grains. */
export function latencyRows(minutes: readonly TrafficIncrement[]): LatencyBatch {
  const grains = [
    new Map<string, Summing>(),
    new Map<string, Summing>(),
    new Map<string, Summing>(),
    new Map<string, Summing>(),
  ];
  for (const minute of minutes) {
    const day = minute.bucket.slice(0, 10);
    const buckets = [minute.bucket, minute.bucket.slice(0, 13) + ':00:00.000Z', day + 'T00:00:00.000Z', weekOf(day)];
    for (let g = 0; g < 4; g++) {
      add(grains[g], minute, buckets[g], minute.server_id, minute.tool_name);
      add(grains[g], minute, buckets[g], minute.server_id, null);
      // The workspace's row: the sum of its servers' rows.
      add(grains[g], minute, buckets[g], null, null);
    }
  }
  const [m, h, d, w] = grains.map(finish);
  return { minutes: m, hours: h, days: d, weeks: w };
}

function add(
  rows: Map<string, Summing>,
  minute: TrafficIncrement,
  bucket: string,
  server: string | null,
  tool: string | null,
): void {
  const id = `${minute.workspace_id}|${bucket}|${server ?? '\u0000'}|${tool ?? '\u0000'}`;
  let summing = rows.get(id);
  if (!summing) {
    summing = {
      row: {
        workspace_id: minute.workspace_id,
        bucket,
        server_id: server,
        tool_name: tool,
        calls: 0,
        protocol_errors: 0,
        server_errors: 0,
        tool_errors: 0,
        sessions: 0,
        argument_tokens: 0,
        result_tokens: 0,
        definition_tokens: 0,
        duration_max_ms: 0,
        last_call_at: null,
        zeros: 0,
        bins: [],
        counts: [],
      },
      bins: new Map(),
    };
    rows.set(id, summing);
  }
  const row = summing.row;
  addCallCounts(row, minute);
  row.zeros += minute.latency_zeros;
  const { latency_bins: bins, latency_counts: counts } = minute;
  for (let i = 0; i < bins.length; i++) summing.bins.set(bins[i], (summing.bins.get(bins[i]) ?? 0) + counts[i]);
}

function finish(rows: Map<string, Summing>): LatencyIncrement[] {
  return [...rows.values()].map(({ row, bins }) => {
    const indexes = [...bins.keys()].sort((a, b) => a - b);
    return { ...row, bins: indexes, counts: indexes.map((index) => bins.get(index) as number) };
  });
}
