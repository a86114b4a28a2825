import type { AnalyticsToolsResult } from '../../../contract/analytics';
import type { AnalyticsContext } from './analyticsContext';
import { ERRORS_SQL, roundRate } from './rollupScope';
import { mergedSketches } from './sketchReads';
import { describeRange } from './timeRange';

// GET …/analytics/tools: every tool called in the range, most called first.

export async function analyticsTools(context: AnalyticsContext): Promise<AnalyticsToolsResult> {
  const { range } = context;
  const scope = context.scope();
  const [rows, sketches] = await Promise.all([
    context.db.query<{
      server_id: string;
      tool_name: string;
      calls: number;
      errors: number;
      result_tokens: number;
      last_call_at: Date | string | null;
    }>(
      `select r.server_id, r.tool_name, sum(r.calls)::float8 as calls, sum(${ERRORS_SQL})::float8 as errors,
              sum(r.result_tokens)::float8 as result_tokens, max(r.last_call_at) as last_call_at
       from ${scope.sums(range.fromMs, range.toMs, 'weeks')} where r.tool_name <> '' group by 1, 2 having sum(r.calls) > 0`,
      scope.params,
    ),
    mergedSketches(context, range.fromMs, range.toMs, 'weeks', 'tool', `r.server_id::text || '/' || r.tool_name`),
  ]);
  return {
    range: describeRange(range),
    tools: rows
      .map((row) => {
        const sketch = sketches.get(`${row.server_id}/${row.tool_name}`);
        return {
          serverId: row.server_id,
          serverName: context.serverName(row.server_id),
          tool: row.tool_name,
          calls: row.calls,
          errorRate: roundRate(row.errors, row.calls),
          p50Ms: sketch?.quantile(0.5) ?? null,
          p95Ms: sketch?.quantile(0.95) ?? null,
          avgResultTokens: Math.round((row.result_tokens / row.calls) * 10) / 10,
          lastCalledAt: row.last_call_at === null ? null : new Date(row.last_call_at).toISOString(),
        };
      })
      .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
  };
}
