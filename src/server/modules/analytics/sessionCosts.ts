import type { CostBreakdown } from '../../../contract/analytics';
import { roundUsd } from '../../../contract/pricing';
import type { AnalyticsContext } from './analyticsContext';

// The costliest sessions active in the range, from the token sums each session row carries (the
// recorder adds them as it measures the session's calls and lists). A session is one agent run: its
// tokens are priced whole, not split by day; per-call tool prices are attributed in the tool view.

const SESSIONS_SHOWN = 20;

/** From this span on, the ranking walks the sessions by input tokens (costliestByWalk) instead of reading every one active. */
const WALK_FROM_MS = 8 * 86_400_000;
/** Sessions read per step of the walk (×4 each step); beyond the last, every active session is read. */
const WALK_STEPS = [200, 800, 3200];

interface SessionRow {
  id: string;
  server_id: string;
  client_name: string | null;
  started_at: Date | string;
  calls: number;
  tokens: number;
  input_tokens: number;
  output_tokens: number;
  cost: number;
}

export async function costliestSessions(context: AnalyticsContext): Promise<CostBreakdown[]> {
  // Sessions are not split by tool: a tool filter leaves none to show.
  if (context.filters.tool) return [];
  const { prices, range } = context;
  const params: unknown[] = [
    context.workspaceId,
    new Date(range.fromMs).toISOString(),
    new Date(range.toMs).toISOString(),
    prices.inputPerMillion,
    prices.outputPerMillion,
    prices.correctionFactor,
  ];
  let filters = '';
  if (context.filters.serverId) {
    params.push(context.filters.serverId);
    filters += ` and s.server_id = $${params.length}`;
  }
  if (context.filters.client) {
    params.push(context.filters.client);
    filters += ` and coalesce(s.client_name, '') = $${params.length}`;
  }
  if (context.filters.keyId === 'none') filters += ' and s.platform_key_id is null';
  else if (context.filters.keyId) {
    params.push(context.filters.keyId);
    filters += ` and s.platform_key_id = $${params.length}`;
  }
  const select = (order: string, limit: number) =>
    context.db.query<SessionRow>(
      `select s.id, s.server_id, s.client_name, s.started_at, s.call_count::float8 as calls,
              (s.argument_tokens + s.result_tokens + s.definition_tokens)::float8 as tokens,
              (s.definition_tokens + s.result_tokens)::float8 as input_tokens, s.argument_tokens::float8 as output_tokens,
              (((s.definition_tokens + s.result_tokens) * $4::float8 + s.argument_tokens * $5::float8) * $6::float8 / 1000000.0)::float8 as cost
       from sessions s
       where s.workspace_id = $1 and s.last_activity_at >= $2::timestamptz and s.started_at < $3::timestamptz${filters}
       order by ${order} limit ${limit}`,
      params,
    );
  const byCost = 'cost desc, s.started_at desc';
  const rows =
    (range.toMs - range.fromMs >= WALK_FROM_MS ? await costliestByWalk(context, select) : null) ??
    (await select(byCost, SESSIONS_SHOWN));
  return rows.map((row) => ({
    id: row.id,
    name: `${row.client_name || 'Unknown client'} · ${new Date(row.started_at).toISOString().slice(0, 16).replace('T', ' ')}`,
    serverId: row.server_id,
    calls: row.calls,
    tokens: row.tokens,
    cost: roundUsd(row.cost),
  }));
}

/**
 * The costliest sessions of a long range without reading every session of it (100,000 in 90 days
 * of the benchmark's workspace, ~50 ms): the active sessions by input tokens, most first (index
 * sessions_workspace_input_tokens, migration 022), a few hundred at a time. A session not read
 * yet has at most the input tokens of the last one read and at most the workspace's largest
 * argument tokens (index sessions_workspace_argument_tokens), so its cost is at most
 * `bound`; once the 20th costliest read costs more than that, no session left can enter the 20:
 * the answer is exact. Null when the walk does not settle in a few steps (the caller reads all).
 */
async function costliestByWalk(
  context: AnalyticsContext,
  select: (order: string, limit: number) => Promise<SessionRow[]>,
): Promise<SessionRow[] | null> {
  const { prices } = context;
  const largest = await context.db.query<{ output_tokens: number }>(
    'select s.argument_tokens::float8 as output_tokens from sessions s where s.workspace_id = $1 order by s.argument_tokens desc limit 1',
    [context.workspaceId],
  );
  const maxOutput = largest[0]?.output_tokens ?? 0;
  const costOf = (input: number, output: number) =>
    ((input * prices.inputPerMillion + output * prices.outputPerMillion) * prices.correctionFactor) / 1_000_000;
  for (const limit of WALK_STEPS) {
    const read = await select('(s.definition_tokens + s.result_tokens) desc', limit);
    const top = [...read]
      .sort((a, b) => b.cost - a.cost || Date.parse(String(b.started_at)) - Date.parse(String(a.started_at)))
      .slice(0, SESSIONS_SHOWN);
    // Fewer than asked for: every active session was read.
    if (read.length < limit) return top;
    const bound = costOf(read[read.length - 1].input_tokens, maxOutput);
    if (top.length === SESSIONS_SHOWN && top[SESSIONS_SHOWN - 1].cost > bound) return top;
  }
  return null;
}
