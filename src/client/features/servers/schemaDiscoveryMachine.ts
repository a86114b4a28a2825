import { assign, fromPromise, setup } from 'xstate';
import { SCHEMA_DISCOVERY_MAX_ATTEMPTS, SCHEMA_DISCOVERY_POLL_MS } from '../../../contract/constants';

// SPEC §4: a newly added server with no schemas is polled every 3 s, at most 10 times, until
// its schemaCount is above 0; then the toast 'Schemas discovered' appears. The fetch and the
// toast are named implementations (`fetchSchemaCount`, `announceDiscovered`) provided by the
// component, so this file holds only the flow and tests drive it with a simulated clock.
export interface SchemaDiscoveryInput {
  workspaceId: string;
  serverId: string;
}

interface Context extends SchemaDiscoveryInput {
  attempts: number;
  schemaCount: number;
}

export const schemaDiscoveryMachine = setup({
  types: {
    context: {} as Context,
    input: {} as SchemaDiscoveryInput,
    events: {} as { type: 'STOP' },
  },
  actors: {
    fetchSchemaCount: fromPromise<number, SchemaDiscoveryInput>(() =>
      Promise.reject(new Error('fetchSchemaCount must be provided')),
    ),
  },
  actions: {
    announceDiscovered: (_, _params: { schemaCount: number }) => {},
  },
  guards: {
    found: ({ context }) => context.schemaCount > 0,
    attemptsLeft: ({ context }) => context.attempts < SCHEMA_DISCOVERY_MAX_ATTEMPTS,
  },
  delays: { pollInterval: SCHEMA_DISCOVERY_POLL_MS },
}).createMachine({
  id: 'schemaDiscovery',
  context: ({ input }) => ({ ...input, attempts: 0, schemaCount: 0 }),
  initial: 'waiting',
  on: { STOP: '.stopped' },
  states: {
    waiting: { after: { pollInterval: 'checking' } },
    checking: {
      entry: assign({ attempts: ({ context }) => context.attempts + 1 }),
      invoke: {
        src: 'fetchSchemaCount',
        input: ({ context }) => ({ workspaceId: context.workspaceId, serverId: context.serverId }),
        onDone: { target: 'deciding', actions: assign({ schemaCount: ({ event }) => event.output }) },
        // A failed poll counts as an attempt; the next one may succeed.
        onError: 'deciding',
      },
    },
    deciding: {
      always: [
        {
          guard: 'found',
          target: 'discovered',
          actions: { type: 'announceDiscovered', params: ({ context }) => ({ schemaCount: context.schemaCount }) },
        },
        { guard: 'attemptsLeft', target: 'waiting' },
        { target: 'gaveUp' },
      ],
    },
    discovered: { type: 'final' },
    gaveUp: { type: 'final' },
    stopped: { type: 'final' },
  },
});

/** The toast text of SPEC §4. */
export function schemasDiscoveredText(count: number): { title: string; description: string } {
  return { title: 'Schemas discovered', description: `Found ${count} schema(s) for this server` };
}
