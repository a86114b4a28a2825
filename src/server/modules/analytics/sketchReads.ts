import type { LatencyGrain } from '../../recording/trafficSql';
import type { AnalyticsContext } from './analyticsContext';
import { groupKey, needsFullKey } from './rollupScope';
import { parseIntArray, StoredSketch } from './storedSketch';

// Latency sketches of a range merged per group (docs/analytics.md "Reading"). Not filtered by
// client, they come from the sketch-only rollup (latency_*, migration 021): a sketch per server
// and bucket, or per tool and bucket when the view is per tool or filtered by tool — 4–32× fewer
// sketches than the traffic rows. Filtered by client, only the traffic rows' own sketches (keyed
// by client) can answer. The merge runs here rather than in SQL: unnesting every row's bins and
// grouping them cost the database more than reading the rows (docs/benchmarks.md).

/** 'workspace': groups across servers (one sketch per bucket); 'server': groups no finer than a server; 'tool': groups by tool. */
export type SketchLevel = 'workspace' | 'server' | 'tool';

/**
 * `group` is an SQL expression over r (r.server_id, r.tool_name, r.bucket), or 'null' for one group.
 * `coarsest`: the coarsest rows to read; 'weeks' only where the groups do not split the range in
 * time (a week row's bucket is its Monday: a series by day must read days).
 * Calls of a group without any answered call have no sketch: the map has no entry for it.
 */
export async function mergedSketches(
  context: AnalyticsContext,
  fromMs: number,
  toMs: number,
  coarsest: LatencyGrain,
  level: SketchLevel,
  group: string,
  /** Also the calls of each group (the per-server / per-tool rows carry them): not with a client filter. */
  callsByGroup?: Map<string, number>,
): Promise<Map<string, StoredSketch>> {
  const scope = context.scope();
  const sketches = new Map<string, StoredSketch>();
  const sketchOf = (grp: unknown): StoredSketch => {
    const key = groupKey(grp);
    let sketch = sketches.get(key);
    if (!sketch) sketches.set(key, (sketch = new StoredSketch()));
    return sketch;
  };
  // The arrays travel as comma-separated text, read by parseIntArray: both drivers' generic array
  // parsers cost ~2× as much per bin, and a range's rows hold ~250 bins each (docs/benchmarks.md).
  // Filtered by client, only the traffic rows (keyed by client) hold the sketches to merge.
  const byClient = needsFullKey(context.filters);
  // Filtered by client, the rows read are those with a sketch: not every call's.
  if (byClient && callsByGroup)
    throw new Error('calls by group come from the per-server / per-tool rows, which have no client');
  const source = byClient
    ? `(select * from ${scope.source(fromMs, toMs, coarsest === 'weeks' ? 'days' : coarsest)} where cardinality(r.latency_bins) > 0 or r.latency_zeros > 0) r`
    : scope.sketchSource(fromMs, toMs, coarsest, sourceLevel(level, context));
  const [zeros, bins, counts] = byClient
    ? ['r.latency_zeros', 'r.latency_bins', 'r.latency_counts']
    : ['r.zeros', 'r.bins', 'r.counts'];
  const rows = await context.db.query<{ grp: unknown; calls?: number; zeros: number; bins: string; counts: string }>(
    `select ${group} as grp, ${callsByGroup ? 'r.calls, ' : ''}${zeros} as zeros, array_to_string(${bins}, ',') as bins, array_to_string(${counts}, ',') as counts from ${source}`,
    scope.params,
  );
  for (const row of rows) {
    if (callsByGroup && row.calls) {
      const key = groupKey(row.grp);
      callsByGroup.set(key, (callsByGroup.get(key) ?? 0) + row.calls);
    }
    if (row.zeros === 0 && row.bins.length === 0) continue;
    // Kept as read (a group of one row answers its quantiles from its arrays: storedSketch.ts).
    sketchOf(row.grp).addArrays(row.zeros, parseIntArray(row.bins), parseIntArray(row.counts));
  }
  return sketches;
}

/**
 * The rows a level reads: a tool filter reads the tool rows; a server filter the server rows (the
 * workspace's row holds every server's calls).
 */
function sourceLevel(level: SketchLevel, context: AnalyticsContext): SketchLevel {
  if (level === 'tool' || context.filters.tool) return 'tool';
  if (level === 'workspace' && context.filters.serverId) return 'server';
  return level;
}
