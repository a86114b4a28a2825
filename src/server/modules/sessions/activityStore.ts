import type { Queryable } from '../../db/database';
import type { ToolCallStatus } from '../../../contract/sessions';
import type { ActivityEvent } from '../../../contract/activity';
import { toSessionDto, toToolCallDto, type SessionRow, type ToolCallRow } from '../../data/sessions/mappers';
import { SESSION_COLUMNS } from './sessionList';
import { TOOL_CALL_COLUMNS } from '../../recording/storedCallSql';
import { SqlConditions } from './sqlConditions';

// The activity feed: tool calls (at their start) and session starts and ends, newest first. It is
// what the live stream would have delivered, so the page's polling fallback shows the same feed.

export interface ActivityFilters {
  limit: number;
  since?: string;
  before?: string;
  serverId?: string;
  tool?: string;
  status?: ToolCallStatus;
  /** Calls the client shows as pending: their current state is added (see ActivityStreamQuery). */
  pendingCallIds?: string[];
}

/**
 * The tool filter matches a part of the name, in any case ("sum" finds get-sum and Get-Sum, issue
 * 38). `position`, not LIKE: what the user typed is taken literally, `%` and `_` included.
 */
const toolNameContains = (tool: string) => `position(lower(${tool}) in lower(tc.tool_name)) > 0`;

/** Among events at the same instant, a session's end comes after its calls, its start before. */
const ORDER_AT_SAME_TIME: Record<ActivityEvent['kind'], number> = {
  session_ended: 2,
  tool_call: 1,
  session_started: 0,
};

export async function listActivity(
  db: Queryable,
  workspaceId: string,
  filters: ActivityFilters,
): Promise<ActivityEvent[]> {
  const onlyCalls = filters.tool !== undefined || filters.status !== undefined;
  const [calls, started, ended, refreshed] = await Promise.all([
    latestToolCalls(db, workspaceId, filters),
    onlyCalls ? [] : latestSessions(db, workspaceId, filters, 'started_at'),
    onlyCalls ? [] : latestSessions(db, workspaceId, filters, 'ended_at'),
    filters.pendingCallIds?.length ? callsById(db, workspaceId, filters.pendingCallIds, filters) : [],
  ]);
  const events: ActivityEvent[] = [
    ...calls.map((row): ActivityEvent => {
      const toolCall = toToolCallDto(row);
      return { kind: 'tool_call', at: toolCall.startedAt, toolCall };
    }),
    ...started.map((row): ActivityEvent => {
      const session = toSessionDto(row);
      return { kind: 'session_started', at: session.startedAt, session };
    }),
    ...ended.map((row): ActivityEvent => {
      const session = toSessionDto(row);
      return { kind: 'session_ended', at: session.endedAt ?? session.lastActivityAt, session };
    }),
  ];
  events.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || ORDER_AT_SAME_TIME[b.kind] - ORDER_AT_SAME_TIME[a.kind]);
  const page = events.slice(0, filters.limit);
  // The asked-for calls in their current state, after the page (they may be older than all of it).
  const onPage = new Set(page.map((event) => (event.kind === 'tool_call' ? event.toolCall.id : null)));
  for (const row of refreshed) {
    if (onPage.has(row.id)) continue;
    const toolCall = toToolCallDto(row);
    page.push({ kind: 'tool_call', at: toolCall.startedAt, toolCall });
  }
  return page;
}

/**
 * Calls of this workspace by id (ids of other workspaces find nothing) that match the server and
 * tool filters. Not the status filter: a call the client shows pending must come back once it
 * ended, so the client sees it leave a "pending" view.
 */
function callsById(
  db: Queryable,
  workspaceId: string,
  ids: string[],
  filters: ActivityFilters,
): Promise<ToolCallRow[]> {
  const where = new SqlConditions()
    .add((ws) => `tc.workspace_id = ${ws}`, workspaceId)
    .add((list) => `tc.id = any(${list}::uuid[])`, ids);
  if (filters.serverId) where.add((id) => `tc.server_id = ${id}`, filters.serverId);
  if (filters.tool) where.add(toolNameContains, filters.tool);
  return db.query<ToolCallRow>(
    `select ${TOOL_CALL_COLUMNS} from tool_calls tc join servers srv on srv.id = tc.server_id ${where.where}`,
    where.params,
  );
}

function latestToolCalls(db: Queryable, workspaceId: string, filters: ActivityFilters): Promise<ToolCallRow[]> {
  const where = new SqlConditions().add((ws) => `tc.workspace_id = ${ws}`, workspaceId);
  if (filters.since) where.add((since) => `tc.started_at > ${since}`, filters.since);
  if (filters.before) where.add((before) => `tc.started_at < ${before}`, filters.before);
  if (filters.serverId) where.add((id) => `tc.server_id = ${id}`, filters.serverId);
  if (filters.tool) where.add(toolNameContains, filters.tool);
  if (filters.status) where.add((status) => `tc.status = ${status}`, filters.status);
  return db.query<ToolCallRow>(
    `select ${TOOL_CALL_COLUMNS} from tool_calls tc join servers srv on srv.id = tc.server_id ${where.where}
     order by tc.started_at desc, tc.id desc limit ${where.param(filters.limit)}`,
    where.params,
  );
}

function latestSessions(
  db: Queryable,
  workspaceId: string,
  filters: ActivityFilters,
  column: 'started_at' | 'ended_at',
): Promise<SessionRow[]> {
  const where = new SqlConditions().add((ws) => `s.workspace_id = ${ws}`, workspaceId);
  if (column === 'ended_at') where.add(() => 's.ended_at is not null');
  if (filters.since) where.add((since) => `s.${column} > ${since}`, filters.since);
  if (filters.before) where.add((before) => `s.${column} < ${before}`, filters.before);
  if (filters.serverId) where.add((id) => `s.server_id = ${id}`, filters.serverId);
  return db.query<SessionRow>(
    `select ${SESSION_COLUMNS} from sessions s join servers srv on srv.id = s.server_id ${where.where}
     order by s.${column} desc limit ${where.param(filters.limit)}`,
    where.params,
  );
}
