import { assign, fromPromise, setup } from 'xstate';
import {
  ACTIVITY_WINDOW_MS,
  INACTIVE_RECHECK_MS,
  REFRESH_BEFORE_EXPIRY_MS,
  TOKEN_EXPIRY_CHECK_MS,
} from '../../../contract/constants';
import { expiresAtMs } from '../../api/tokens';
import type { User } from './userMapping';

// SPEC §4 Session and tokens, as a machine. It holds no React and makes no calls: the effects
// are the named actors and actions below, which TokenLifecycle.tsx wires to the API and the
// store, and tests replace with fakes. Times come from Date.now() and the actor's clock, so
// tests drive them with fake timers. Diagram: docs/client-data.md.

/** What a failed refresh or profile load rejects with: `signedOut` when the session is over. */
export class SessionFailure extends Error {
  constructor(
    readonly signedOut: boolean,
    message = signedOut ? 'The session ended' : 'The session could not be checked',
  ) {
    super(message);
    this.name = 'SessionFailure';
  }
}

export interface TokenLifecycleInput {
  accessToken: string | null;
  refreshToken: string | null;
}

export interface TokenLifecycleContext {
  hasStoredTokens: boolean;
  /** Expiry of the current access token (epoch ms); null when unknown or absent. */
  accessExpiresAt: number | null;
  /** Last mouse, key, click or scroll (epoch ms). Opening the app counts as activity. */
  lastActivityAt: number;
  /** When the next 60-second expiry check runs. */
  nextExpiryCheckAt: number;
  /** Set when the scheduled refresh found the user inactive (or failed): look again then. */
  refreshRecheckAt: number | null;
  /** When this machine last refreshed: a token issued with less than 5 min to live must not
   * make it refresh in a tight loop. */
  lastRefreshAt: number | null;
}

export type TokenLifecycleEvent =
  | { type: 'USER_ACTIVE' }
  /** A sign-in finished elsewhere (login, register, OAuth callback). */
  | { type: 'SIGNED_IN'; accessToken: string | null }
  /** The session ended elsewhere (the logout thunk, a rejected refresh in a request). */
  | { type: 'SIGNED_OUT' }
  /** A request's refresh stored a new access token. */
  | { type: 'ACCESS_TOKEN_REFRESHED'; accessToken: string }
  /** The storage event: another tab changed (or removed) the access token. */
  | { type: 'ACCESS_TOKEN_CHANGED_IN_OTHER_TAB'; accessToken: string | null }
  | { type: 'LOGOUT' };

/** Node timers overflow past 2^31-1 ms and fire at once; longer waits are re-planned. */
const MAX_TIMER_MS = 2_147_483_647;
const msUntil = (at: number) => Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now()));

function refreshDueAt(context: TokenLifecycleContext): number | null {
  const planned =
    context.refreshRecheckAt ??
    (context.accessExpiresAt === null ? null : context.accessExpiresAt - REFRESH_BEFORE_EXPIRY_MS);
  if (planned === null || context.lastRefreshAt === null) return planned;
  return Math.max(planned, context.lastRefreshAt + TOKEN_EXPIRY_CHECK_MS);
}

function isFailureThatEndedSession(error: unknown): boolean {
  return error instanceof SessionFailure && error.signedOut;
}

export const tokenLifecycleMachine = setup({
  types: {
    context: {} as TokenLifecycleContext,
    events: {} as TokenLifecycleEvent,
    input: {} as TokenLifecycleInput,
  },
  actors: {
    /** Exchanges the refresh token; resolves with the new access token, rejects with a SessionFailure. */
    refreshAccessToken: fromPromise<{ accessToken: string }>(() =>
      Promise.reject(new Error('refreshAccessToken is not provided')),
    ),
    /** GET /users/me; rejects with a SessionFailure. */
    loadProfile: fromPromise<User | null>(() => Promise.reject(new Error('loadProfile is not provided'))),
    /** POST /auth/logout. Its outcome does not matter: the session ends either way. */
    logOutOnServer: fromPromise((): Promise<void> => Promise.reject(new Error('logOutOnServer is not provided'))),
  },
  actions: {
    /** Puts the user (or null when the profile could not be loaded) in the store as signed in. */
    signIn: (_, _params: { user: User | null }) => {},
    /** Clears both tokens, the user and the cached answers. */
    clearSession: () => {},
    /** Nothing to clear (no tokens at start): only records the signed-out status. */
    markSignedOut: () => {},
    reloadWorkspaces: () => {},
    recordActivity: assign({ lastActivityAt: () => Date.now() }),
    storeAccessTokenExpiry: assign((_, params: { accessToken: string | null }) => ({
      hasStoredTokens: Boolean(params.accessToken),
      accessExpiresAt: expiresAtMs(params.accessToken),
      refreshRecheckAt: null,
    })),
    startExpiryChecks: assign({
      nextExpiryCheckAt: () => Date.now() + TOKEN_EXPIRY_CHECK_MS,
      refreshRecheckAt: null,
    }),
    advanceExpiryCheck: assign({ nextExpiryCheckAt: () => Date.now() + TOKEN_EXPIRY_CHECK_MS }),
    postponeScheduledRefresh: assign({ refreshRecheckAt: () => Date.now() + INACTIVE_RECHECK_MS }),
    recordRefresh: assign({ lastRefreshAt: () => Date.now() }),
  },
  guards: {
    hasNoStoredTokens: ({ context }) => !context.hasStoredTokens,
    /** At start an expired token, or none beside a refresh token, is refreshed before use. */
    needsRefreshAtStart: ({ context }) => context.accessExpiresAt === null || context.accessExpiresAt <= Date.now(),
    isAccessTokenKnownExpired: ({ context }) =>
      context.accessExpiresAt !== null && context.accessExpiresAt <= Date.now(),
    isExpiryCheckDue: ({ context }) => context.nextExpiryCheckAt <= Date.now(),
    isScheduledRefreshDue: ({ context }) => {
      const due = refreshDueAt(context);
      return due !== null && due <= Date.now();
    },
    wasRecentlyActive: ({ context }) => Date.now() - context.lastActivityAt <= ACTIVITY_WINDOW_MS,
    failureEndedSession: ({ event }) => isFailureThatEndedSession((event as { error?: unknown }).error),
    accessTokenRemoved: (_, params: { accessToken: string | null }) => !params.accessToken,
  },
  delays: {
    untilExpiryCheck: ({ context }) => msUntil(context.nextExpiryCheckAt),
    untilScheduledRefresh: ({ context }) => {
      const due = refreshDueAt(context);
      return due === null ? MAX_TIMER_MS : msUntil(due);
    },
  },
}).createMachine({
  id: 'tokenLifecycle',
  context: ({ input }) => ({
    hasStoredTokens: Boolean(input.accessToken || input.refreshToken),
    accessExpiresAt: expiresAtMs(input.accessToken),
    lastActivityAt: Date.now(),
    nextExpiryCheckAt: Date.now() + TOKEN_EXPIRY_CHECK_MS,
    refreshRecheckAt: null,
    lastRefreshAt: null,
  }),
  initial: 'checkingStoredTokens',
  on: {
    USER_ACTIVE: { actions: 'recordActivity' },
  },
  states: {
    // Start-up: no tokens → signed out; expired (or only a refresh token) → refresh, then profile.
    checkingStoredTokens: {
      always: [
        { guard: 'hasNoStoredTokens', target: 'signedOut', actions: 'markSignedOut' },
        { guard: 'needsRefreshAtStart', target: 'refreshingStoredToken' },
        { target: 'loadingProfile' },
      ],
    },
    refreshingStoredToken: {
      invoke: {
        src: 'refreshAccessToken',
        onDone: {
          target: 'loadingProfile',
          actions: {
            type: 'storeAccessTokenExpiry',
            params: ({ event }) => ({ accessToken: event.output.accessToken }),
          },
        },
        onError: [
          { guard: 'failureEndedSession', target: 'signedOut', actions: 'clearSession' },
          // Unreachable server (offline start): keep the session; the 60 s check tries again.
          { target: 'loadingProfile' },
        ],
      },
    },
    loadingProfile: {
      invoke: {
        src: 'loadProfile',
        onDone: {
          target: 'signedIn',
          actions: { type: 'signIn', params: ({ event }) => ({ user: event.output }) },
        },
        onError: [
          { guard: 'failureEndedSession', target: 'signedOut', actions: 'clearSession' },
          { target: 'signedIn', actions: { type: 'signIn', params: { user: null } } },
        ],
      },
    },
    signedIn: {
      entry: 'startExpiryChecks',
      initial: 'planning',
      on: {
        LOGOUT: { target: 'loggingOut' },
        SIGNED_OUT: { target: 'signedOut' },
        SIGNED_IN: {
          target: '.planning',
          actions: { type: 'storeAccessTokenExpiry', params: ({ event }) => ({ accessToken: event.accessToken }) },
        },
        ACCESS_TOKEN_CHANGED_IN_OTHER_TAB: [
          {
            guard: { type: 'accessTokenRemoved', params: ({ event }) => ({ accessToken: event.accessToken }) },
            target: 'signedOut',
            actions: 'clearSession',
          },
          {
            target: '.planning',
            actions: [
              { type: 'storeAccessTokenExpiry', params: ({ event }) => ({ accessToken: event.accessToken }) },
              'reloadWorkspaces',
            ],
          },
        ],
      },
      states: {
        // Every timer is an absolute time in context. Whenever one fires, all of them are
        // looked at together, so two that fall due at the same moment are both honoured
        // and re-planning never shifts the schedule.
        planning: {
          always: [
            { guard: 'isExpiryCheckDue', target: 'checkingExpiry' },
            { guard: 'isScheduledRefreshDue', target: 'scheduledRefreshDue' },
            { target: 'monitoring' },
          ],
        },
        monitoring: {
          on: {
            ACCESS_TOKEN_REFRESHED: {
              target: 'planning',
              actions: { type: 'storeAccessTokenExpiry', params: ({ event }) => ({ accessToken: event.accessToken }) },
            },
          },
          after: {
            untilExpiryCheck: { target: 'planning' },
            untilScheduledRefresh: { target: 'planning' },
          },
        },
        // The 60 s check: refresh only if the token has expired.
        checkingExpiry: {
          entry: 'advanceExpiryCheck',
          always: [{ guard: 'isAccessTokenKnownExpired', target: 'refreshing' }, { target: 'planning' }],
        },
        // 5 min before expiry: refresh if the user was active in the last 30 min, else look again in 5 min.
        scheduledRefreshDue: {
          always: [
            { guard: 'wasRecentlyActive', target: 'refreshing' },
            { target: 'planning', actions: 'postponeScheduledRefresh' },
          ],
        },
        refreshing: {
          invoke: {
            src: 'refreshAccessToken',
            onDone: {
              target: 'planning',
              actions: [
                { type: 'storeAccessTokenExpiry', params: ({ event }) => ({ accessToken: event.output.accessToken }) },
                'recordRefresh',
              ],
            },
            onError: [
              { guard: 'failureEndedSession', target: '#tokenLifecycle.signedOut', actions: 'clearSession' },
              // Network trouble: keep the session, try again at the next planned moment.
              { target: 'planning', actions: 'postponeScheduledRefresh' },
            ],
          },
        },
      },
    },
    // Logout calls the server, then always clears the tokens and the user.
    loggingOut: {
      invoke: {
        src: 'logOutOnServer',
        onDone: { target: 'signedOut', actions: 'clearSession' },
        onError: { target: 'signedOut', actions: 'clearSession' },
      },
    },
    signedOut: {
      on: {
        SIGNED_IN: {
          target: 'signedIn',
          actions: { type: 'storeAccessTokenExpiry', params: ({ event }) => ({ accessToken: event.accessToken }) },
        },
        ACCESS_TOKEN_CHANGED_IN_OTHER_TAB: {
          guard: ({ event }) => Boolean(event.accessToken),
          target: 'loadingProfile',
          actions: [
            { type: 'storeAccessTokenExpiry', params: ({ event }) => ({ accessToken: event.accessToken }) },
            'reloadWorkspaces',
          ],
        },
      },
    },
  },
});

export type TokenLifecycleMachine = typeof tokenLifecycleMachine;
