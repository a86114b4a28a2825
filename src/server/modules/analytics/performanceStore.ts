import type { PerformanceSeriesResult, PerformanceSummaryResult } from '../../../contract/analytics';
import type { StoredSketch } from './storedSketch';
import type { AnalyticsContext } from './analyticsContext';
import { stepBin } from './overviewStore';
import { groupKey, needsFullKey, roundRate } from './rollupScope';
import { mergedSketches } from './sketchReads';
import { coarsestFor, describeRange, seriesStarts } from './timeRange';

// GET …/analytics/performance: with format=summary, latency percentiles and errors by class per
// server and per tool over the range; without, p50/p95/p99 per step of the range for each server.
// Percentiles come from the merged DDSketches of every rollup row of the group (within 1 %).

interface LatencyRow {
  calls: number;
  protocol: number;
  server: number;
  tool: number;
  max_ms: number | null;
}

function latencySummary(row: LatencyRow, sketch: StoredSketch | undefined) {
  const errors = row.protocol + row.server + row.tool;
  return {
    calls: row.calls,
    errors,
    errorRate: roundRate(errors, row.calls),
    errorsByClass: { protocol: row.protocol, server: row.server, tool: row.tool },
    p50Ms: sketch?.quantile(0.5) ?? null,
    p90Ms: sketch?.quantile(0.9) ?? null,
    p95Ms: sketch?.quantile(0.95) ?? null,
    p99Ms: sketch?.quantile(0.99) ?? null,
    maxMs: sketch && sketch.count > 0 ? row.max_ms : null,
  };
}

export async function performanceSummary(context: AnalyticsContext): Promise<PerformanceSummaryResult> {
  const { range } = context;
  const scope = context.scope();
  // Servers and tools in one scan of the per-tool sums (tool_name null: a server's row).
  const [rows, serverSketches, toolSketches] = await Promise.all([
    context.db.query<{ server_id: string; tool_name: string | null } & LatencyRow>(
      `select r.server_id, case when grouping(r.tool_name) = 1 then null else r.tool_name end as tool_name,
              sum(r.calls)::float8 as calls, sum(r.protocol_errors)::float8 as protocol, sum(r.server_errors)::float8 as server,
              sum(r.tool_errors)::float8 as tool, max(r.duration_max_ms)::float8 as max_ms
       from ${scope.sums(range.fromMs, range.toMs, 'weeks')} where r.tool_name <> ''
       group by grouping sets ((r.server_id), (r.server_id, r.tool_name))`,
      scope.params,
    ),
    mergedSketches(context, range.fromMs, range.toMs, 'weeks', 'server', 'r.server_id::text'),
    mergedSketches(context, range.fromMs, range.toMs, 'weeks', 'tool', `r.server_id::text || '/' || r.tool_name`),
  ]);
  return {
    range: describeRange(range),
    servers: rows
      .filter((row) => row.tool_name === null)
      .map((row) => ({
        serverId: row.server_id,
        serverName: context.serverName(row.server_id),
        ...latencySummary(row, serverSketches.get(row.server_id)),
      }))
      .sort((a, b) => b.calls - a.calls),
    tools: rows
      .filter((row): row is typeof row & { tool_name: string } => row.tool_name !== null)
      .map((row) => ({
        serverId: row.server_id,
        serverName: context.serverName(row.server_id),
        tool: row.tool_name,
        ...latencySummary(row, toolSketches.get(`${row.server_id}/${row.tool_name}`)),
      }))
      .sort((a, b) => (b.p95Ms ?? -1) - (a.p95Ms ?? -1) || b.calls - a.calls),
  };
}

export async function performanceSeries(context: AnalyticsContext): Promise<PerformanceSeriesResult> {
  const { range } = context;
  const bin = stepBin(range);
  const coarsest = coarsestFor(range.step);
  const group = `r.server_id::text || '|' || to_char(${bin} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`;
  const calls = new Map<string, number>();
  let sketches: Map<string, StoredSketch>;
  if (needsFullKey(context.filters)) {
    // The full-key rows: their sketches (rows with one) and their calls (every row) apart.
    const scope = context.scope();
    const [rows, merged] = await Promise.all([
      context.db.query<{ t: Date | string; server_id: string; calls: number }>(
        `select ${bin} as t, r.server_id, sum(r.calls)::float8 as calls from ${scope.sums(range.fromMs, range.toMs, coarsest)}
         where r.tool_name <> '' group by 1, 2`,
        scope.params,
      ),
      mergedSketches(context, range.fromMs, range.toMs, coarsest, 'server', group),
    ]);
    for (const row of rows) if (row.calls > 0) calls.set(`${row.server_id}|${groupKey(row.t)}`, row.calls);
    sketches = merged;
  } else {
    // The per-server rows hold both: the calls and the sketch of a server and step in one read
    // (a 7-day series by hour is 840 of them).
    sketches = await mergedSketches(context, range.fromMs, range.toMs, coarsest, 'server', group, calls);
  }
  const serverIds = new Set<string>();
  for (const [key, count] of calls) if (count > 0) serverIds.add(key.slice(0, key.indexOf('|')));
  const starts = seriesStarts(range).map((start) => new Date(start).toISOString());
  return {
    range: describeRange(range),
    servers: [...serverIds].map((serverId) => ({
      serverId,
      serverName: context.serverName(serverId),
      series: starts.map((t) => {
        const sketch = sketches.get(`${serverId}|${t}`);
        return {
          t,
          calls: calls.get(`${serverId}|${t}`) ?? 0,
          p50Ms: sketch?.quantile(0.5) ?? null,
          p95Ms: sketch?.quantile(0.95) ?? null,
          p99Ms: sketch?.quantile(0.99) ?? null,
        };
      }),
    })),
  };
}
