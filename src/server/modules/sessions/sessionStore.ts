import type { Queryable } from '../../db/database';
import type { ReplayResult, SessionDto, SessionListResult, SessionStatus } from '../../../contract/sessions';
import { toMessageDto, toSessionDto, toToolCallDto, type MessageRow, type SessionRow, type ToolCallRow } from './mappers';
import { likePattern, toolCallSearchDocument, toSearchQuery } from './sessionSearch';
import { SqlConditions } from './sqlConditions';
import { REPLAY_PAYLOAD, sessionMessagesSql, TOOL_CALL_COLUMNS, callArgumentsTextSql } from '../../recording/storedCallSql';

// Reads of the sessions, messages and tool calls the recorder writes. Every query is scoped by
// workspace_id first, so an id from another workspace simply is not found.

export const SESSION_COLUMNS = `s.id, s.workspace_id, s.server_id, srv.name as server_name, s.mcp_session_id, s.transport,
  s.protocol_version, s.client_name, s.client_version, s.status, s.started_at, s.last_activity_at, s.ended_at,
  s.message_count, s.call_count, s.error_count`;

export interface SessionFilters {
  limit: number;
  offset: number;
  serverId?: string;
  client?: string;
  status?: SessionStatus;
  from?: string;
  to?: string;
  q?: string;
}

export async function listSessions(db: Queryable, workspaceId: string, filters: SessionFilters): Promise<SessionListResult> {
  const where = new SqlConditions().add((ws) => `s.workspace_id = ${ws}`, workspaceId);
  if (filters.serverId) where.add((id) => `s.server_id = ${id}`, filters.serverId);
  if (filters.client) where.add((prefix) => `lower(s.client_name) like ${prefix}`, likePattern(filters.client.toLowerCase()).slice(1));
  if (filters.status) where.add((status) => `s.status = ${status}`, filters.status);
  if (filters.from) where.add((from) => `s.started_at >= ${from}`, filters.from);
  if (filters.to) where.add((to) => `s.started_at <= ${to}`, filters.to);
  if (filters.q) addTextSearch(where, workspaceId, filters.q);

  const countParams = [...where.params];
  const [rows, counted] = await Promise.all([
    db.query<SessionRow>(
      `select ${SESSION_COLUMNS} from sessions s join servers srv on srv.id = s.server_id ${where.where}
       order by s.started_at desc, s.id desc limit ${where.param(filters.limit)} offset ${where.param(filters.offset)}`,
      where.params,
    ),
    db.query<{ total: number }>(`select count(*)::int as total from sessions s ${where.where}`, countParams),
  ]);
  return { sessions: rows.map(toSessionDto), total: counted[0]?.total ?? 0, limit: filters.limit, offset: filters.offset };
}

// `offset 0` keeps the matching calls a separate step (one index lookup, hashed), so the planner
// cannot instead walk every session newest-first probing the calls of each: that plan, picked when
// it underestimates how rare a word is, took 5 s at 100k sessions (docs/benchmarks.md).
function addTextSearch(where: SqlConditions, workspaceId: string, text: string): void {
  const query = toSearchQuery(text);
  if (query) {
    where.add(
      (ws, q) =>
        `s.id in (select tc.session_id from tool_calls tc where tc.workspace_id = ${ws} and ${toolCallSearchDocument('tc')} @@ to_tsquery('simple', ${q}) offset 0)`,
      workspaceId,
      query,
    );
    return;
  }
  // Only punctuation was typed: no words to index, so match it as a substring (slower, rare).
  where.add(
    (ws, pattern) =>
      `s.id in (select tc.session_id from tool_calls tc where tc.workspace_id = ${ws} and (tc.tool_name || ' ' || ${callArgumentsTextSql('tc')}) like ${pattern} offset 0)`,
    workspaceId,
    likePattern(text),
  );
}

export async function findSession(db: Queryable, workspaceId: string, sessionId: string): Promise<SessionDto | null> {
  const rows = await db.query<SessionRow>(
    `select ${SESSION_COLUMNS} from sessions s join servers srv on srv.id = s.server_id where s.workspace_id = $1 and s.id = $2`,
    [workspaceId, sessionId],
  );
  return rows[0] ? toSessionDto(rows[0]) : null;
}

export interface ReplayWindow {
  limit: number;
  offset: number;
  startTime?: string;
  endTime?: string;
}

/** One page of a session's messages in seq order, with the tool calls those messages carry. */
export async function replaySession(db: Queryable, session: SessionDto, window: ReplayWindow): Promise<ReplayResult> {
  const where = new SqlConditions();
  where.param(session.id); // $1 of sessionMessagesSql
  if (window.startTime) where.add((start) => `sm.created_at >= ${start}`, window.startTime);
  if (window.endTime) where.add((end) => `sm.created_at <= ${end}`, window.endTime);
  const countParams = [...where.params];
  const [rows, counted] = await Promise.all([
    db.query<MessageRow>(
      `select p.seq, p.direction, p.kind, p.method, p.jsonrpc_id, ${REPLAY_PAYLOAD} as payload, p.size_bytes, p.truncated, p.created_at, p.progress_count
       from (${sessionMessagesSql(where.where)} order by sm.seq limit ${where.param(window.limit)} offset ${where.param(window.offset)}) p
       left join messages m on m.id = p.message_ref
       left join tool_calls c on c.id = p.call_ref
       order by p.seq`,
      where.params,
    ),
    db.query<{ total: number }>(`select count(*)::int as total from (${sessionMessagesSql(where.where)}) counted`, countParams),
  ]);
  const messages = rows.map(toMessageDto);
  const callIds = [...new Set(messages.filter((m) => m.kind === 'request' && m.method === 'tools/call' && m.jsonrpcId !== null).map((m) => m.jsonrpcId))];
  const toolCalls = callIds.length
    ? await db.query<ToolCallRow>(
        `select ${TOOL_CALL_COLUMNS} from tool_calls tc join servers srv on srv.id = tc.server_id
         where tc.session_id = $1 and tc.jsonrpc_id = any($2::text[]) order by tc.started_at`,
        [session.id, callIds],
      )
    : [];
  return { session, messages, total: counted[0]?.total ?? 0, toolCalls: toolCalls.map(toToolCallDto) };
}
