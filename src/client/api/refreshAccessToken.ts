import type { Dispatch } from '@reduxjs/toolkit';
import { Mutex } from 'async-mutex';
import type { RefreshResult } from '../../contract/auth';
import { ErrorText } from '../../contract/errors';
import { Paths } from '../../contract/routes';
import type { ApiError } from './apiError';
import { accessTokenRefreshed, sessionExpired } from './authEvents';
import { sendApiRequest } from './request';
import { clearTokens, getAccessToken, getRefreshToken, needsRefreshBeforeUse, setTokens } from './tokens';

export type RefreshOutcome =
  | { ok: true; accessToken: string }
  /** `signedOut`: the tokens were cleared. A network failure keeps them (the next try may work). */
  | { ok: false; error: ApiError; signedOut: boolean };

// One refresh at a time for the whole app: base query, token lifecycle and workspace switch
// all come through here (the mutex of the RTK Query re-auth recipe).
const refreshMutex = new Mutex();

export function isRefreshInFlight(): boolean {
  return refreshMutex.isLocked();
}

export function waitForRefreshToFinish(): Promise<void> {
  return refreshMutex.waitForUnlock();
}

function endSession(dispatch: Dispatch, error: ApiError): RefreshOutcome {
  clearTokens();
  dispatch(sessionExpired({ reason: error.message }));
  return { ok: false, error: { ...error, sessionEnded: true }, signedOut: true };
}

async function exchangeRefreshToken(dispatch: Dispatch): Promise<RefreshOutcome> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) return endSession(dispatch, { status: 'CLIENT_ERROR', message: ErrorText.noRefreshToken });

  const result = await sendApiRequest(
    { url: Paths.refresh, method: 'POST', body: { refreshToken }, authenticate: false },
    { accessToken: null },
  );
  if (result.error) {
    const { status } = result.error;
    if (typeof status !== 'number') return { ok: false, error: result.error, signedOut: false };
    // Another tab spent this refresh token first (browsers without Web Locks): use what it stored.
    const storedNow = getAccessToken();
    if (getRefreshToken() !== refreshToken && storedNow && !needsRefreshBeforeUse(storedNow)) {
      return { ok: true, accessToken: storedNow };
    }
    return endSession(dispatch, {
      status,
      message: ErrorText.tokenRefreshFailed(status),
      serverMessage: result.error.serverMessage,
    });
  }
  const body = result.data as Partial<RefreshResult> | undefined;
  if (!body || typeof body.accessToken !== 'string' || body.accessToken === '') {
    return endSession(dispatch, { status: 200, message: ErrorText.tokenRefreshFailed(200) });
  }
  setTokens({ accessToken: body.accessToken, refreshToken: body.refreshToken });
  dispatch(accessTokenRefreshed({ accessToken: body.accessToken }));
  return { ok: true, accessToken: body.accessToken };
}

/**
 * Tabs share the tokens, and a refresh token is used up by its first refresh: where the browser
 * offers Web Locks, refreshes are also serialized across tabs, so a second tab waits and then
 * finds the token the first one stored instead of spending the same refresh token again.
 */
function withCrossTabLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof locks.request !== 'function') return task();
  return locks.request('toolscope.token-refresh', task);
}

/**
 * POST /auth/refresh {refreshToken} and store the result. `staleAccessToken` is the token the
 * caller found unusable: when another caller already replaced it with a fresh one while we
 * waited for the lock, that one is used and no second refresh is made.
 */
export async function refreshAccessToken(
  dispatch: Dispatch,
  { staleAccessToken }: { staleAccessToken?: string | null } = {},
): Promise<RefreshOutcome> {
  return refreshMutex.runExclusive(() =>
    withCrossTabLock(async () => {
      const current = getAccessToken();
      if (
        staleAccessToken !== undefined &&
        current &&
        current !== staleAccessToken &&
        !needsRefreshBeforeUse(current)
      ) {
        return { ok: true, accessToken: current };
      }
      return exchangeRefreshToken(dispatch);
    }),
  );
}
