import { assign, fromCallback, setup } from 'xstate';
import {
  LIVE_STREAM_INITIAL_DELAY_MS,
  LIVE_STREAM_MAX_RECONNECTS,
  LIVE_STREAM_RECONNECT_MS,
} from '../../../contract/constants';
import { ErrorText } from '../../../contract/errors';
import type { LiveMessage } from '../../../contract/live';

// SPEC §4/§9 live stream: connects only with a token and a workspace, after 100 ms; on error it
// closes and retries every 3000 ms up to 5 attempts, then reports closed. A token or workspace
// change connects, disconnects or reconnects. A page the browser hides (navigated away from, kept
// in its back-forward cache) lets its stream go: every such page held a connection to Toolscope,
// and Chromium's six per host ran out — every request of the next page then waited ~45 s. Shown
// again, it reconnects at once (and fetches what it missed, LiveStream.tsx). The connection itself is the named actor
// `connection` (EventSource in the app, a fake in tests); delivered messages go to the named
// action `deliver`.
export interface ConnectionInput {
  workspaceId: string;
  token: string;
}

export type ConnectionEvent = { type: 'OPENED' } | { type: 'MESSAGE'; message: LiveMessage } | { type: 'FAILED' };

export type LiveStreamEvent =
  | { type: 'CREDENTIALS'; token: string | null; workspaceId: string | null }
  | { type: 'PAGE_HIDDEN' }
  | { type: 'PAGE_SHOWN' }
  | ConnectionEvent;

interface Context {
  token: string | null;
  workspaceId: string | null;
  /** Reconnect attempts since the last successful open. */
  attempts: number;
  error: string | null;
}

export const liveStreamMachine = setup({
  types: {
    context: {} as Context,
    events: {} as LiveStreamEvent,
    input: {} as { token: string | null; workspaceId: string | null },
  },
  actors: {
    connection: fromCallback<ConnectionEvent, ConnectionInput>(() => () => undefined),
  },
  actions: {
    deliver: (_, _params: { message: LiveMessage }) => {},
    storeCredentials: assign(({ event }) =>
      event.type === 'CREDENTIALS' ? { token: event.token, workspaceId: event.workspaceId } : {},
    ),
    resetAttempts: assign({ attempts: 0, error: null }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    noteMissingToken: assign({ error: ({ context }) => (context.token ? null : ErrorText.noAuthToken) }),
  },
  guards: {
    hasCredentials: ({ context }) => Boolean(context.token && context.workspaceId),
    credentialsChanged: ({ context, event }) =>
      event.type === 'CREDENTIALS' && (event.token !== context.token || event.workspaceId !== context.workspaceId),
    attemptsLeft: ({ context }) => context.attempts < LIVE_STREAM_MAX_RECONNECTS,
  },
  delays: { initialDelay: LIVE_STREAM_INITIAL_DELAY_MS, reconnectDelay: LIVE_STREAM_RECONNECT_MS },
}).createMachine({
  id: 'liveStream',
  context: ({ input }) => ({ token: input.token, workspaceId: input.workspaceId, attempts: 0, error: null }),
  initial: 'deciding',
  on: {
    // Any change of token or workspace starts over: connect, disconnect or reconnect.
    CREDENTIALS: {
      guard: 'credentialsChanged',
      target: '.deciding',
      actions: ['storeCredentials', 'resetAttempts'],
      reenter: true,
    },
    PAGE_HIDDEN: { target: '.suspended' },
  },
  states: {
    deciding: {
      always: [{ guard: 'hasCredentials', target: 'starting' }, { target: 'idle' }],
    },
    idle: { entry: 'noteMissingToken' },
    starting: { after: { initialDelay: 'live' } },
    live: {
      initial: 'connecting',
      invoke: {
        src: 'connection',
        // Entered only with both (hasCredentials); the blanks only satisfy the types.
        input: ({ context }) => ({ workspaceId: context.workspaceId ?? '', token: context.token ?? '' }),
      },
      on: {
        MESSAGE: { actions: { type: 'deliver', params: ({ event }) => ({ message: event.message }) } },
        FAILED: [{ guard: 'attemptsLeft', target: 'reconnecting', actions: 'countAttempt' }, { target: 'closed' }],
      },
      states: {
        connecting: { on: { OPENED: { target: 'connected', actions: 'resetAttempts' } } },
        connected: {},
      },
    },
    reconnecting: { after: { reconnectDelay: 'live' } },
    closed: {},
    // No connection while the page is hidden; credentials that change meanwhile are kept for the return.
    suspended: {
      on: {
        CREDENTIALS: { actions: 'storeCredentials' },
        PAGE_SHOWN: { target: 'deciding', actions: 'resetAttempts' },
      },
    },
  },
});

/** What the UI shows: connected / reconnecting / closed (and off when there is nothing to watch). */
export type LiveStreamStatus = 'off' | 'connecting' | 'connected' | 'reconnecting' | 'closed';

export function liveStreamStatus(value: unknown): LiveStreamStatus {
  if (value === 'idle' || value === 'deciding' || value === 'suspended') return 'off';
  if (value === 'starting') return 'connecting';
  if (value === 'reconnecting') return 'reconnecting';
  if (value === 'closed') return 'closed';
  if (typeof value === 'object' && value !== null && 'live' in value) {
    return (value as { live: string }).live === 'connected' ? 'connected' : 'connecting';
  }
  return 'off';
}
