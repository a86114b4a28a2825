import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { ErrorText } from '../../contract/errors';
import { API, Paths } from '../../contract/routes';
import type { ApiError } from './apiError';
import { refreshAccessToken, waitForRefreshToFinish } from './refreshAccessToken';
import { normalizeRequest, sendApiRequest, type ApiRequest } from './request';
import { withRetryPolicy } from './retryPolicy';
import { getAccessToken, getRefreshToken, needsRefreshBeforeUse } from './tokens';

const PUBLIC_PATHS: readonly string[] = [
  Paths.login,
  Paths.register,
  Paths.refresh,
  // The refresh token in the body is the credential; refreshing first only to revoke is waste.
  Paths.logout,
  Paths.forgotPassword,
  Paths.resetPassword,
  Paths.oauthToken,
  Paths.config,
  Paths.health,
  Paths.servicesHealth,
  Paths.systemHealth,
];

/** Calls made before sign-in (or health checks): no bearer header, no refresh. */
export function isPublicPath(url: string): boolean {
  const path = url.split('?')[0];
  return PUBLIC_PATHS.includes(path) || (path.startsWith(`${API}/services/`) && path.endsWith('/health'));
}

/**
 * Bearer header; refresh first when the access token is expired or within 5 min of expiry;
 * on a 401 one refresh and one retry. Refreshes go through the shared mutex, so concurrent
 * requests wait for the refresh in flight instead of starting another.
 */
export const authenticatedRequest: BaseQueryFn<ApiRequest, unknown, ApiError> = async (args, api) => {
  const request = normalizeRequest(args);
  const signal = api.signal;
  if (request.authenticate === false || isPublicPath(request.url)) {
    return sendApiRequest({ ...request, authenticate: false }, { accessToken: null, signal });
  }

  // A token that a running refresh is about to replace would only earn a 401.
  await waitForRefreshToFinish();
  let accessToken = getAccessToken();
  if (!accessToken && !getRefreshToken()) {
    return { error: { status: 'CLIENT_ERROR', message: ErrorText.noAccessToken } };
  }
  if (!accessToken || needsRefreshBeforeUse(accessToken)) {
    const outcome = await refreshAccessToken(api.dispatch, { staleAccessToken: accessToken });
    if (!outcome.ok && (outcome.signedOut || !accessToken)) return { error: outcome.error };
    accessToken = outcome.ok ? outcome.accessToken : accessToken;
  }

  const result = await sendApiRequest(request, { accessToken, signal });
  if (result.error?.status !== 401) return result;

  const outcome = await refreshAccessToken(api.dispatch, { staleAccessToken: accessToken });
  if (!outcome.ok) return { error: outcome.signedOut ? outcome.error : result.error };
  return sendApiRequest(request, { accessToken: outcome.accessToken, signal });
};

/** The base query of the one createApi: authentication, refresh, then the retry policy around it. */
export const baseQueryWithReauth = withRetryPolicy(authenticatedRequest);
