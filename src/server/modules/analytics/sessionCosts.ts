import type { CostBreakdown } from '../../../contract/analytics';
import { roundUsd } from '../../../contract/pricing';
import type { AnalyticsContext } from './analyticsContext';

// The costliest sessions active in the range, from the token sums each session row carries (the
// recorder adds them as it measures the session's calls and lists). A session is one agent run: its
// tokens are priced whole, not split by day; per-call tool prices are attributed in the tool view.

const SESSIONS_SHOWN = 20;

export async function costliestSessions(context: AnalyticsContext): Promise<CostBreakdown[]> {
  // Sessions are not split by tool: a tool filter leaves none to show.
  if (context.filters.tool) return [];
  const { prices, range } = context;
  const params: unknown[] = [context.workspaceId, new Date(range.fromMs).toISOString(), new Date(range.toMs).toISOString(), prices.inputPerMillion, prices.outputPerMillion, prices.correctionFactor];
  let filters = '';
  if (context.filters.serverId) {
    params.push(context.filters.serverId);
    filters += ` and s.server_id = $${params.length}`;
  }
  if (context.filters.client) {
    params.push(context.filters.client);
    filters += ` and coalesce(s.client_name, '') = $${params.length}`;
  }
  const rows = await context.db.query<{ id: string; server_id: string; client_name: string | null; started_at: Date | string; calls: number; tokens: number; cost: number }>(
    `select s.id, s.server_id, s.client_name, s.started_at, s.call_count::float8 as calls,
            (s.argument_tokens + s.result_tokens + s.definition_tokens)::float8 as tokens,
            (((s.definition_tokens + s.result_tokens) * $4::float8 + s.argument_tokens * $5::float8) * $6::float8 / 1000000.0)::float8 as cost
     from sessions s
     where s.workspace_id = $1 and s.last_activity_at >= $2::timestamptz and s.started_at < $3::timestamptz${filters}
     order by cost desc, s.started_at desc limit ${SESSIONS_SHOWN}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    name: `${row.client_name || 'Unknown client'} · ${new Date(row.started_at).toISOString().slice(0, 16).replace('T', ' ')}`,
    serverId: row.server_id,
    calls: row.calls,
    tokens: row.tokens,
    cost: roundUsd(row.cost),
  }));
}
