import { createActor, fromPromise } from 'xstate';
import { SessionFailure, tokenLifecycleMachine } from '../../../../src/client/features/auth/tokenLifecycleMachine';
import type { User } from '../../../../src/client/features/auth/userMapping';
import { fakeJwt } from '../../helpers/fakeFetch';

const MINUTE = 60_000;
const USER = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' } as User;

/** The machine with fake effects; every call is recorded with the (fake) time it happened. */
function startLifecycle(
  tokens: { accessToken: string | null; refreshToken: string | null },
  {
    refresh = () => Promise.resolve({ accessToken: fakeJwt(15 * 60) }),
    profile = () => Promise.resolve(USER),
    serverLogout = () => Promise.resolve(),
  }: {
    refresh?: () => Promise<{ accessToken: string }>;
    profile?: () => Promise<User | null>;
    serverLogout?: () => Promise<void>;
  } = {},
) {
  const log: string[] = [];
  const startedAt = Date.now();
  const at = () => `${Math.round((Date.now() - startedAt) / 1000)}s`;
  const refreshAccessToken = jest.fn(async () => {
    log.push(`refresh@${at()}`);
    return refresh();
  });
  const machine = tokenLifecycleMachine.provide({
    actors: {
      refreshAccessToken: fromPromise(refreshAccessToken),
      loadProfile: fromPromise(async () => {
        log.push('loadProfile');
        return profile();
      }),
      logOutOnServer: fromPromise(async () => {
        log.push('logOutOnServer');
        return serverLogout();
      }),
    },
    actions: {
      signIn: (_, { user }) => log.push(`signIn:${user?.id ?? 'none'}`),
      clearSession: () => log.push('clearSession'),
      markSignedOut: () => log.push('markSignedOut'),
      reloadWorkspaces: () => log.push('reloadWorkspaces'),
    },
  });
  const actor = createActor(machine, { input: tokens });
  actor.start();
  return { actor, log, refreshAccessToken, state: () => actor.getSnapshot().value };
}

const signedOutFailure = new SessionFailure(true, 'Token refresh failed: 401');
const networkFailure = new SessionFailure(false, 'Failed to fetch');

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-21T08:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('start-up check', () => {
  it('signs out at once when no tokens are stored', async () => {
    const { log, state } = startLifecycle({ accessToken: null, refreshToken: null });
    await jest.advanceTimersByTimeAsync(0);
    expect(state()).toBe('signedOut');
    expect(log).toEqual(['markSignedOut']);
  });

  it('loads the profile without refreshing when the token is valid', async () => {
    const { log, state } = startLifecycle({ accessToken: fakeJwt(10 * 60), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['loadProfile', 'signIn:u1']);
    expect(state()).toEqual({ signedIn: 'monitoring' });
  });

  it('refreshes an expired token, then loads the profile', async () => {
    const { log, state } = startLifecycle({ accessToken: fakeJwt(-60), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['refresh@0s', 'loadProfile', 'signIn:u1']);
    expect(state()).toEqual({ signedIn: 'monitoring' });
  });

  it('refreshes when only the refresh token is left', async () => {
    const { log } = startLifecycle({ accessToken: null, refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['refresh@0s', 'loadProfile', 'signIn:u1']);
  });

  it('clears the tokens and signs out when that refresh fails', async () => {
    const { log, state } = startLifecycle(
      { accessToken: fakeJwt(-60), refreshToken: 'revoked' },
      { refresh: () => Promise.reject(signedOutFailure) },
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['refresh@0s', 'clearSession']);
    expect(state()).toBe('signedOut');
  });

  it('signs out when the profile load ends the session', async () => {
    const { log, state } = startLifecycle(
      { accessToken: fakeJwt(600), refreshToken: 'r' },
      { profile: () => Promise.reject(signedOutFailure) },
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['loadProfile', 'clearSession']);
    expect(state()).toBe('signedOut');
  });

  it('stays signed in without a profile when the server is unreachable', async () => {
    const { log, state } = startLifecycle(
      { accessToken: fakeJwt(600), refreshToken: 'r' },
      { profile: () => Promise.reject(networkFailure) },
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['loadProfile', 'signIn:none']);
    expect(state()).toEqual({ signedIn: 'monitoring' });
  });
});

describe('the 60 s expiry check', () => {
  it('refreshes at the first check after the token expired, even without activity', async () => {
    // Expires at 40:30; inactive since start, so the scheduled refresh never runs.
    const { log, refreshAccessToken } = startLifecycle({ accessToken: fakeJwt(40 * 60 + 30), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(41 * MINUTE - 1);
    expect(refreshAccessToken).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(log.filter((e) => e.startsWith('refresh'))).toEqual(['refresh@2460s']);
  });

  it('does nothing while the token is valid', async () => {
    const { refreshAccessToken, state } = startLifecycle({ accessToken: fakeJwt(60 * 60), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(20 * MINUTE);
    expect(refreshAccessToken).not.toHaveBeenCalled();
    expect(state()).toEqual({ signedIn: 'monitoring' });
  });
});

describe('the refresh scheduled 5 minutes before expiry', () => {
  it('refreshes when the user was active in the last 30 minutes', async () => {
    const { actor, log, refreshAccessToken } = startLifecycle({ accessToken: fakeJwt(15 * 60), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(9 * MINUTE);
    actor.send({ type: 'USER_ACTIVE' });
    await jest.advanceTimersByTimeAsync(MINUTE - 1);
    expect(refreshAccessToken).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(log.filter((e) => e.startsWith('refresh'))).toEqual(['refresh@600s']);
  });

  it('keeps refreshing 5 minutes before each new expiry', async () => {
    const { log } = startLifecycle({ accessToken: fakeJwt(15 * 60), refreshToken: 'r' });
    // Opening the app counts as activity; a new 15-minute token arrives at each refresh.
    await jest.advanceTimersByTimeAsync(20 * MINUTE);
    expect(log.filter((e) => e.startsWith('refresh'))).toEqual(['refresh@600s', 'refresh@1200s']);
  });

  it('rechecks in 5 minutes when the user was inactive, and refreshes once they are back', async () => {
    // Expires at 50:20, so the refresh is due at 45:20; no activity for over 30 minutes by then.
    const { actor, log, refreshAccessToken } = startLifecycle({
      accessToken: fakeJwt(50 * 60 + 20),
      refreshToken: 'r',
    });
    await jest.advanceTimersByTimeAsync(45 * MINUTE + 20_000);
    expect(refreshAccessToken).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(2 * MINUTE);
    actor.send({ type: 'USER_ACTIVE' });
    await jest.advanceTimersByTimeAsync(3 * MINUTE - 1);
    expect(refreshAccessToken).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(log.filter((e) => e.startsWith('refresh'))).toEqual(['refresh@3020s']);
  });

  it('counts activity only within the 30-minute window', async () => {
    // Due at 40:00; the last activity at 9:59 is 30 min 1 s old by then.
    const { actor, refreshAccessToken } = startLifecycle({ accessToken: fakeJwt(45 * 60), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(9 * MINUTE + 59_000);
    actor.send({ type: 'USER_ACTIVE' });
    await jest.advanceTimersByTimeAsync(30 * MINUTE + 1_000);
    expect(refreshAccessToken).not.toHaveBeenCalled();
  });

  it('follows a token refreshed elsewhere (by a request)', async () => {
    const { actor, refreshAccessToken } = startLifecycle({ accessToken: fakeJwt(15 * 60), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    actor.send({ type: 'ACCESS_TOKEN_REFRESHED', accessToken: fakeJwt(15 * 60) });
    await jest.advanceTimersByTimeAsync(10 * MINUTE - 1);
    expect(refreshAccessToken).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(refreshAccessToken).toHaveBeenCalledTimes(1);
  });

  it('signs out when the scheduled refresh is rejected', async () => {
    const { log, state } = startLifecycle(
      { accessToken: fakeJwt(6 * 60), refreshToken: 'r' },
      { refresh: () => Promise.reject(signedOutFailure) },
    );
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(log).toEqual(['loadProfile', 'signIn:u1', 'refresh@60s', 'clearSession']);
    expect(state()).toBe('signedOut');
  });

  it('keeps the session and tries again later when the server is unreachable', async () => {
    const { state, refreshAccessToken } = startLifecycle(
      { accessToken: fakeJwt(6 * 60), refreshToken: 'r' },
      { refresh: () => Promise.reject(networkFailure) },
    );
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(refreshAccessToken).toHaveBeenCalledTimes(1);
    expect(state()).toEqual({ signedIn: 'monitoring' });
    // Expired at 6:00: the 60 s check at 6:00 tries again.
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    expect(refreshAccessToken).toHaveBeenCalledTimes(2);
  });
});

describe('logout', () => {
  it('calls the server, then clears the tokens and the user', async () => {
    const { actor, log, state } = startLifecycle({ accessToken: fakeJwt(600), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(0);
    actor.send({ type: 'LOGOUT' });
    await jest.advanceTimersByTimeAsync(0);
    expect(log.slice(-2)).toEqual(['logOutOnServer', 'clearSession']);
    expect(state()).toBe('signedOut');
  });

  it('clears them even when the server call fails', async () => {
    const { actor, log, state } = startLifecycle(
      { accessToken: fakeJwt(600), refreshToken: 'r' },
      { serverLogout: () => Promise.reject(new Error('API Error 500: Internal error')) },
    );
    await jest.advanceTimersByTimeAsync(0);
    actor.send({ type: 'LOGOUT' });
    await jest.advanceTimersByTimeAsync(0);
    expect(log.slice(-2)).toEqual(['logOutOnServer', 'clearSession']);
    expect(state()).toBe('signedOut');
  });

  it('stops all timers once signed out', async () => {
    const { actor, refreshAccessToken } = startLifecycle({ accessToken: fakeJwt(6 * 60), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(0);
    actor.send({ type: 'SIGNED_OUT' });
    await jest.advanceTimersByTimeAsync(60 * MINUTE);
    expect(refreshAccessToken).not.toHaveBeenCalled();
  });
});

describe('another tab', () => {
  it('reloads the workspaces when it changes the access token', async () => {
    const { actor, log, state } = startLifecycle({ accessToken: fakeJwt(600), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(0);
    actor.send({ type: 'ACCESS_TOKEN_CHANGED_IN_OTHER_TAB', accessToken: fakeJwt(15 * 60) });
    expect(log).toContain('reloadWorkspaces');
    expect(state()).toEqual({ signedIn: 'monitoring' });
  });

  it('signs this tab out when it removes the access token', async () => {
    const { actor, log, state } = startLifecycle({ accessToken: fakeJwt(600), refreshToken: 'r' });
    await jest.advanceTimersByTimeAsync(0);
    actor.send({ type: 'ACCESS_TOKEN_CHANGED_IN_OTHER_TAB', accessToken: null });
    expect(log.at(-1)).toBe('clearSession');
    expect(state()).toBe('signedOut');
  });

  it('signs this tab in when it signs in', async () => {
    const { actor, log, state } = startLifecycle({ accessToken: null, refreshToken: null });
    await jest.advanceTimersByTimeAsync(0);
    actor.send({ type: 'ACCESS_TOKEN_CHANGED_IN_OTHER_TAB', accessToken: fakeJwt(15 * 60) });
    await jest.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['markSignedOut', 'reloadWorkspaces', 'loadProfile', 'signIn:u1']);
    expect(state()).toEqual({ signedIn: 'monitoring' });
  });
});

describe('sign-in in this tab', () => {
  it('starts monitoring the new token', async () => {
    const { actor, refreshAccessToken, state } = startLifecycle({ accessToken: null, refreshToken: null });
    await jest.advanceTimersByTimeAsync(0);
    actor.send({ type: 'SIGNED_IN', accessToken: fakeJwt(15 * 60) });
    expect(state()).toEqual({ signedIn: 'monitoring' });
    await jest.advanceTimersByTimeAsync(10 * MINUTE);
    expect(refreshAccessToken).toHaveBeenCalledTimes(1);
  });
});

describe('a server issuing short-lived tokens', () => {
  it('never makes the scheduled refresh spin: at most one per minute', async () => {
    // Every new token lives 2 minutes, always inside the 5-minute window.
    const { refreshAccessToken } = startLifecycle(
      { accessToken: fakeJwt(2 * 60), refreshToken: 'r' },
      { refresh: () => Promise.resolve({ accessToken: fakeJwt(2 * 60) }) },
    );
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    expect(refreshAccessToken.mock.calls.length).toBeGreaterThanOrEqual(5);
    expect(refreshAccessToken.mock.calls.length).toBeLessThanOrEqual(6);
  });
});
