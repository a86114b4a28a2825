import type { MessageDirection } from '../../contract/sessions';
import { hasId, idKey, type JsonRpcMessage } from '../proxy/jsonRpc';
import type { RecordedSession } from './openSessions';
import type { TaskCalls } from './taskCalls';

// Which tool a message is about, before it is recorded: the workspace's redaction paths scoped to
// a tool apply to it (messageRecording.ts).

/**
 * The tool a message belongs to: a tools/call request's name, or the name of the call a response
 * answers — a tasks/* answer, that of the task's call when it is open here (taskCalls.ts).
 */
export function toolOf(
  session: RecordedSession,
  direction: MessageDirection,
  message: JsonRpcMessage,
  tasks: TaskCalls<RecordedSession>,
): string | undefined {
  if (!hasId(message)) return undefined;
  if (message.method === 'tools/call') {
    const name = (message.params as { name?: unknown } | undefined)?.name;
    return typeof name === 'string' ? name : undefined;
  }
  if (message.method !== undefined) return undefined;
  const requestDirection = direction === 'server_to_client' ? 'client_to_server' : 'server_to_client';
  const pending = session.pending.get(`${requestDirection}:${idKey(message.id)}`);
  const taskId = pending?.task?.id;
  return pending?.call?.tool_name ?? (taskId ? tasks.toolOf(session.row.server_id, taskId) : undefined);
}
