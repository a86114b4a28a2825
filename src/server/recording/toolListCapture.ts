import type { MessageDirection } from '../../contract/sessions';
import { idKey, type JsonRpcMessage } from '../proxy/jsonRpc';
import type { PairingSession } from './callPairing';

// Which responses are a server's answer to tools/list: their definitions enter the agent model's
// context (docs/analytics.md "Context weight"). Asked before the response is paired (pairing
// forgets the request), so the recorder can hand the list to the analytics rollup.

/** Whether `message` (a response) answers a tools/list request the client sent in this session. */
export function answersToolsList(
  session: PairingSession,
  direction: MessageDirection,
  message: JsonRpcMessage & { id: string | number },
): boolean {
  if (direction !== 'server_to_client' || message.result === undefined) return false;
  return session.pending.get(`client_to_server:${idKey(message.id)}`)?.method === 'tools/list';
}
