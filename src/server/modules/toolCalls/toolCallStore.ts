import type { Queryable } from '../../db/database';
import type { ToolCallDto } from '../../../contract/sessions';
import { toToolCallDto, type ToolCallRow } from '../../data/sessions/mappers';
import { TOOL_CALL_COLUMNS } from '../../recording/storedCallSql';
import { SqlConditions } from '../sessions/sqlConditions';

/** The newest tool calls of a workspace (or of one of its sessions), newest first. */
export async function latestToolCalls(
  db: Queryable,
  workspaceId: string,
  limit: number,
  sessionId?: string,
): Promise<ToolCallDto[]> {
  const where = new SqlConditions().add((ws) => `tc.workspace_id = ${ws}`, workspaceId);
  if (sessionId) where.add((id) => `tc.session_id = ${id}`, sessionId);
  const rows = await db.query<ToolCallRow>(
    `select ${TOOL_CALL_COLUMNS} from tool_calls tc join servers srv on srv.id = tc.server_id ${where.where}
     order by tc.started_at desc, tc.id desc limit ${where.param(limit)}`,
    where.params,
  );
  return rows.map(toToolCallDto);
}
