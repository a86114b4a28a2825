import type { Queryable } from '../../db/database';
import type { ReplayResult, SessionDto } from '../../../contract/sessions';
import {
  toMessageDto,
  toSessionDto,
  toToolCallDto,
  type MessageRow,
  type SessionRow,
  type ToolCallRow,
} from '../../data/sessions/mappers';
import { SESSION_COLUMNS } from './sessionList';
import { SqlConditions } from './sqlConditions';
import { REPLAY_PAYLOAD, sessionMessagesSql, TOOL_CALL_COLUMNS } from '../../recording/storedCallSql';

// Reads of the sessions, messages and tool calls the recorder writes. Every query is scoped by
// workspace_id first, so an id from another workspace simply is not found.

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
    db.query<{ total: number }>(
      `select count(*)::int as total from (${sessionMessagesSql(where.where)}) counted`,
      countParams,
    ),
  ]);
  const messages = rows.map(toMessageDto);
  const callIds = [
    ...new Set(
      messages
        .filter((m) => m.kind === 'request' && m.method === 'tools/call' && m.jsonrpcId !== null)
        .map((m) => m.jsonrpcId),
    ),
  ];
  const toolCalls = callIds.length
    ? await db.query<ToolCallRow>(
        `select ${TOOL_CALL_COLUMNS} from tool_calls tc join servers srv on srv.id = tc.server_id
         where tc.session_id = $1 and tc.jsonrpc_id = any($2::text[]) order by tc.started_at, tc.request_seq`,
        [session.id, callIds],
      )
    : [];
  return { session, messages, total: counted[0]?.total ?? 0, toolCalls: toolCalls.map(toToolCallDto) };
}
