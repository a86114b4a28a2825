import type { Queryable } from '../../../src/server/db/database';
import type { MessageRow, ToolCallRow } from '../../../src/server/data/sessions/mappers';
import { REPLAY_PAYLOAD, sessionMessagesSql, TOOL_CALL_COLUMNS } from '../../../src/server/recording/storedCallSql';

// What the recorder stored, read the way the API reads it (a tool call's request and response
// live in its own row since migration 007, so `messages` alone is not a session's replay).

/** Tool calls matching `where` (on `tc`), with arguments and result as the API derives them. */
export function recordedCalls(
  db: Queryable,
  where: string,
  params: unknown[],
): Promise<Array<ToolCallRow & Record<string, unknown>>> {
  return db.query(
    `select ${TOOL_CALL_COLUMNS} from tool_calls tc join servers srv on srv.id = tc.server_id where ${where} order by tc.started_at, tc.request_seq, tc.jsonrpc_id`,
    params,
  );
}

/** Every message of a session in seq order, from `messages` and from the calls' rows. */
export function recordedMessages(db: Queryable, sessionId: string): Promise<MessageRow[]> {
  return db.query<MessageRow>(
    `select p.seq, p.direction, p.kind, p.method, p.jsonrpc_id, ${REPLAY_PAYLOAD} as payload, p.size_bytes, p.truncated, p.created_at, p.progress_count
     from (${sessionMessagesSql('')}) p left join messages m on m.id = p.message_ref left join tool_calls c on c.id = p.call_ref
     order by p.seq`,
    [sessionId],
  );
}
