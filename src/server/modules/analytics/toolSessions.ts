import type { AnalyticsContext } from './analyticsContext';
import { groupKey } from './rollupScope';

// Sessions under a tool filter (docs/analytics.md "Session"). A rollup row counts a session once,
// when it starts, on the row of tool '' (it belongs to no call), so `tool = X` over the rollups
// finds no sessions at all; and which sessions called X cannot be summed from per-tool rows (one
// session calls X in many minutes). So a view filtered by tool counts the distinct sessions among
// the range's calls of that tool, from the calls themselves (index tool_calls_workspace_started),
// with the view's server and client filters. Calls older than the raw data's retention have no
// rows left: such a range counts the sessions still held.

/**
 * Distinct sessions that called the filtered tool in [fromMs, toMs), per group: `bin` an SQL
 * expression over `tc.started_at` (e.g. a date_bin or a local date), or null for one group ('').
 */
export async function sessionsCallingTool(
  context: AnalyticsContext,
  fromMs: number,
  toMs: number,
  bin: ((startedAt: string) => string) | null,
  extraParams: unknown[] = [],
): Promise<Map<string, number>> {
  const tool = context.filters.tool;
  if (!tool) throw new Error('sessions calling a tool need a tool filter');
  const params: unknown[] = [...extraParams];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [
    `tc.workspace_id = ${param(context.workspaceId)}`,
    `tc.tool_name = ${param(tool)}`,
    `tc.started_at >= ${param(new Date(fromMs).toISOString())}::timestamptz`,
    `tc.started_at < ${param(new Date(toMs).toISOString())}::timestamptz`,
  ];
  if (context.filters.serverId) where.push(`tc.server_id = ${param(context.filters.serverId)}`);
  const { client, keyId } = context.filters;
  const join = client || keyId ? 'join sessions s on s.id = tc.session_id' : '';
  if (client) where.push(`coalesce(s.client_name, '') = ${param(client)}`);
  if (keyId === 'none') where.push('tc.platform_key_id is null');
  else if (keyId) where.push(`tc.platform_key_id = ${param(keyId)}`);
  const group = bin ? bin('tc.started_at') : `''`;
  const rows = await context.db.query<{ grp: unknown; sessions: number }>(
    `select ${group} as grp, count(distinct tc.session_id)::int as sessions
     from tool_calls tc ${join} where ${where.join(' and ')} group by 1`,
    params,
  );
  return new Map(rows.map((row) => [groupKey(row.grp), row.sessions]));
}
