import { setup } from 'xstate';

// SPEC §4 onboarding: Welcome ('Get Started') → Connect Tool Server ("I'll do this later",
// 'Connect Tool Server' → /servers). Skipping or closing sets a session-scoped skipped marker.
// It opens on ?welcome=true (which also clears the persisted completion and skip markers), on
// ?noservers=true without the session skip, or when loading found no servers and there is no
// session skip (nor a persisted completion); it closes when servers exist. Storage and
// navigation are named actions the component provides.
export interface OnboardingMarkers {
  skippedThisSession: boolean;
  completed: boolean;
}

export type OnboardingEvent =
  | { type: 'LOCATION'; welcome: boolean; noservers: boolean; markers: OnboardingMarkers }
  | { type: 'SERVERS_LOADED'; count: number; markers: OnboardingMarkers }
  | { type: 'GET_STARTED' }
  | { type: 'LATER' }
  | { type: 'SKIP' }
  | { type: 'CLOSE' }
  | { type: 'CONNECT' };

export const onboardingMachine = setup({
  types: { events: {} as OnboardingEvent },
  actions: {
    clearMarkers: () => {},
    markSkipped: () => {},
    markCompleted: () => {},
    goToServers: () => {},
  },
  guards: {
    welcomeRequested: ({ event }) => event.type === 'LOCATION' && event.welcome,
    noServersRequested: ({ event }) =>
      event.type === 'LOCATION' && event.noservers && !event.markers.skippedThisSession,
    noServersFound: ({ event }) =>
      event.type === 'SERVERS_LOADED' &&
      event.count === 0 &&
      !event.markers.skippedThisSession &&
      !event.markers.completed,
    serversExist: ({ event }) => event.type === 'SERVERS_LOADED' && event.count > 0,
  },
}).createMachine({
  id: 'onboarding',
  initial: 'closed',
  states: {
    closed: {
      on: {
        LOCATION: [
          { guard: 'welcomeRequested', target: 'open', actions: 'clearMarkers' },
          { guard: 'noServersRequested', target: 'open' },
        ],
        SERVERS_LOADED: { guard: 'noServersFound', target: 'open' },
      },
    },
    open: {
      initial: 'welcome',
      on: {
        SERVERS_LOADED: { guard: 'serversExist', target: 'closed' },
        SKIP: { target: 'closed', actions: 'markSkipped' },
        CLOSE: { target: 'closed', actions: 'markSkipped' },
      },
      states: {
        welcome: { on: { GET_STARTED: 'connect' } },
        connect: {
          on: {
            LATER: { target: '#onboarding.closed', actions: 'markSkipped' },
            CONNECT: { target: '#onboarding.closed', actions: ['markCompleted', 'goToServers'] },
          },
        },
      },
    },
  },
});
