import type { Queryable } from '../../db/database';
import type {
  SessionListItem,
  SessionListResult,
  SessionSort,
  SessionStatus,
  SortOrder,
} from '../../../contract/sessions';
import { roundUsd } from '../../../contract/pricing';
import { readPrices } from '../analytics/pricingStore';
import { toSessionDto, type SessionRow } from '../../data/sessions/mappers';
import { likePattern } from './sessionSearch';
import { addTextSearch } from './sessionTextSearch';
import { SqlConditions } from './sqlConditions';

// The sessions list and its export (GET …/sessions, …/sessions/export): filters, search, sort.
// Tokens and cost are the session row's own sums (the recorder adds each call's and each
// tools/list's tokens to its session, docs/analytics.md); cost is priced when read, at the
// workspace's current prices, with the same formula as the analytics' costliest sessions.

export const SESSION_COLUMNS = `s.id, s.workspace_id, s.server_id, srv.name as server_name, s.mcp_session_id, s.transport,
  s.protocol_version, s.client_name, s.client_version, s.status, s.started_at, s.last_activity_at, s.ended_at,
  s.message_count, s.call_count, s.error_count`;

export interface SessionListFilters {
  serverId?: string;
  client?: string;
  status?: SessionStatus;
  from?: string;
  to?: string;
  q?: string;
  hasErrors?: boolean;
  sort: SessionSort;
  order: SortOrder;
}

export interface SessionPage {
  limit: number;
  offset: number;
}

type ListRow = SessionRow & { tokens: number | string; cost: number | string };

const TOKENS_SQL = '(s.argument_tokens + s.result_tokens + s.definition_tokens)';
const DURATION_SQL = '(coalesce(s.ended_at, s.last_activity_at) - s.started_at)';

/** The WHERE clause of the filters (workspace first, so another workspace's ids are never found). */
function filterConditions(workspaceId: string, filters: SessionListFilters): SqlConditions {
  const where = new SqlConditions().add((ws) => `s.workspace_id = ${ws}`, workspaceId);
  if (filters.serverId) where.add((id) => `s.server_id = ${id}`, filters.serverId);
  if (filters.client)
    where.add((prefix) => `lower(s.client_name) like ${prefix}`, likePattern(filters.client.toLowerCase()).slice(1));
  if (filters.status) where.add((status) => `s.status = ${status}`, filters.status);
  if (filters.from) where.add((from) => `s.started_at >= ${from}`, filters.from);
  if (filters.to) where.add((to) => `s.started_at <= ${to}`, filters.to);
  if (filters.hasErrors !== undefined) where.add(() => (filters.hasErrors ? 's.error_count > 0' : 's.error_count = 0'));
  if (filters.q) addTextSearch(where, workspaceId, filters.q);
  return where;
}

/** ORDER BY for a sort; ties fall back to newest first, then id, so pages never overlap. */
function orderBy(sort: SessionSort, order: SortOrder): string {
  const direction = order === 'asc' ? 'asc' : 'desc';
  const key: Record<SessionSort, string> = {
    startedAt: 's.started_at',
    duration: DURATION_SQL,
    calls: 's.call_count',
    errors: 's.error_count',
    tokens: TOKENS_SQL,
    cost: 'cost',
  };
  return `order by ${key[sort]} ${direction}, s.started_at ${direction}, s.id ${direction}`;
}

async function selectSessions(
  db: Queryable,
  workspaceId: string,
  filters: SessionListFilters,
  page: SessionPage,
): Promise<{ rows: SessionListItem[]; total: number }> {
  const prices = await readPrices(db, workspaceId);
  const where = filterConditions(workspaceId, filters);
  const countParams = [...where.params];
  const input = where.param(prices.inputPerMillion);
  const output = where.param(prices.outputPerMillion);
  const factor = where.param(prices.correctionFactor);
  const [rows, counted] = await Promise.all([
    db.query<ListRow>(
      `select ${SESSION_COLUMNS}, ${TOKENS_SQL}::float8 as tokens,
         (((s.definition_tokens + s.result_tokens) * ${input}::float8 + s.argument_tokens * ${output}::float8) * ${factor}::float8 / 1000000.0)::float8 as cost
       from sessions s join servers srv on srv.id = s.server_id ${where.where}
       ${orderBy(filters.sort, filters.order)} limit ${where.param(page.limit)} offset ${where.param(page.offset)}`,
      where.params,
    ),
    db.query<{ total: number }>(`select count(*)::int as total from sessions s ${where.where}`, countParams),
  ]);
  return {
    rows: rows.map((row) => ({
      ...toSessionDto(row),
      tokens: Math.round(Number(row.tokens)),
      cost: roundUsd(Number(row.cost)),
    })),
    total: counted[0]?.total ?? 0,
  };
}

export async function listSessions(
  db: Queryable,
  workspaceId: string,
  query: SessionListFilters & SessionPage,
): Promise<SessionListResult> {
  const { rows, total } = await selectSessions(db, workspaceId, query, query);
  return { sessions: rows, total, limit: query.limit, offset: query.offset };
}

/** The first `max` sessions of the filtered list, in its order, and how many matched. */
export async function sessionsForExport(
  db: Queryable,
  workspaceId: string,
  filters: SessionListFilters,
  max: number,
): Promise<{ sessions: SessionListItem[]; total: number }> {
  const { rows, total } = await selectSessions(db, workspaceId, filters, { limit: max, offset: 0 });
  return { sessions: rows, total };
}
