import { fromCallback } from 'xstate';
import type { LiveMessage } from '../../../contract/live';
import { Paths } from '../../../contract/routes';
import { env } from '../../env';
import type { ConnectionEvent, ConnectionInput } from './liveStreamMachine';

// The browser implementation of the live stream machine's `connection` actor. EventSource cannot
// send headers, so the token travels as a query parameter (the server accepts it on this one
// route only and never logs it). EventSource's own auto-retry is cut off: the machine decides.
/** A JSON value shaped like a live message (the effects check each type's data themselves). */
function isLiveMessage(value: unknown): value is LiveMessage {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

export const eventSourceConnection = fromCallback<ConnectionEvent, ConnectionInput>(({ input, sendBack }) => {
  const url = `${env.apiBase}${Paths.liveStream(input.workspaceId)}?token=${encodeURIComponent(input.token)}`;
  const source = new EventSource(url);
  source.onopen = () => sendBack({ type: 'OPENED' });
  source.onmessage = (event: MessageEvent<string>) => {
    try {
      const message: unknown = JSON.parse(event.data);
      if (isLiveMessage(message)) sendBack({ type: 'MESSAGE', message });
    } catch {
      // Not JSON: not a message of ours.
    }
  };
  source.onerror = () => {
    source.close();
    sendBack({ type: 'FAILED' });
  };
  return () => source.close();
});
