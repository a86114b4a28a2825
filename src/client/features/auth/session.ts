import { createAsyncThunk, type Dispatch } from '@reduxjs/toolkit';
import type { LoginBody, LoginResult } from '../../../contract/auth';
import { ErrorText } from '../../../contract/errors';
import { clientError, isApiError, type ApiError } from '../../api/apiError';
import { apiSlice } from '../../api/apiSlice';
import { clearTokens, getAccessToken, getRefreshToken, setTokens } from '../../api/tokens';
import { workspacesApi } from '../workspaces/workspacesApi';
import { authApi } from './authApi';
import { signedIn, signedOut } from './authSlice';
import { mapUser, saveTemporaryAvatar, type User } from './userMapping';

// Signing in and out. Both are thunks so any screen (login, register, OAuth callback, avatar
// menu) gets the same sequence; the token lifecycle follows the auth status they set.

function isCredentials(input: unknown): input is LoginBody {
  if (!input || typeof input !== 'object') return false;
  const { email, password } = input as Record<string, unknown>;
  return typeof email === 'string' && email.trim() !== '' && typeof password === 'string' && password !== '';
}

/** A ready login result: camelCase (LoginResult) or the OAuth form's snake_case names. */
export function asLoginResult(input: unknown): LoginResult | null {
  if (!input || typeof input !== 'object') return null;
  const record = input as Record<string, unknown>;
  const accessToken = record.accessToken ?? record.access_token;
  const refreshToken = record.refreshToken ?? record.refresh_token;
  if (typeof accessToken !== 'string' || !accessToken || typeof refreshToken !== 'string' || !refreshToken) return null;
  return { accessToken, refreshToken, user: record.user as LoginResult['user'] };
}

function asApiError(error: unknown): ApiError {
  return isApiError(error) ? error : clientError(ErrorText.unknownError);
}

/**
 * Ends the session locally: tokens, user, every cached answer of that user, and the avatar they
 * picked but did not save (one key per browser: the next account would otherwise wear it).
 */
export function clearSession(dispatch: Dispatch): void {
  clearTokens();
  saveTemporaryAvatar(null);
  dispatch(signedOut());
  dispatch(apiSlice.util.resetApiState());
}

/**
 * login({ email, password }) or login(loginResult); anything else is refused with
 * 'Invalid login parameters'. Stores the tokens and the user, then loads the workspaces.
 * Rejects with an ApiError (its `fields` name the inputs the server refused).
 */
export const login = createAsyncThunk<
  User | null,
  LoginBody | LoginResult | Record<string, unknown>,
  { rejectValue: ApiError }
>('auth/login', async (input, { dispatch, rejectWithValue }) => {
  let result: LoginResult;
  if (isCredentials(input)) {
    const response = await dispatch(authApi.endpoints.login.initiate({ email: input.email, password: input.password }));
    if (response.error) return rejectWithValue(asApiError(response.error));
    result = response.data;
  } else {
    const ready = asLoginResult(input);
    if (!ready) return rejectWithValue(clientError(ErrorText.invalidLoginParameters));
    result = ready;
  }

  // A previous account's cached answers must not show for this one.
  dispatch(apiSlice.util.resetApiState());
  setTokens({ accessToken: result.accessToken, refreshToken: result.refreshToken });

  let user: User | null = result.user ? mapUser(result.user) : null;
  if (!user) {
    const me = await dispatch(authApi.endpoints.getMe.initiate(undefined, { subscribe: false, forceRefetch: true }));
    if (me.error) {
      clearTokens();
      dispatch(signedOut());
      return rejectWithValue(asApiError(me.error));
    }
    user = me.data ?? null;
  }
  dispatch(signedIn(user));
  await dispatch(workspacesApi.endpoints.getWorkspaces.initiate(undefined, { subscribe: false, forceRefetch: true }));
  return user;
});

/** Tells the server (revoking the refresh token), then ALWAYS clears the tokens and the user. */
export const logout = createAsyncThunk('auth/logout', async (_, { dispatch }) => {
  const refreshToken = getRefreshToken();
  try {
    if (getAccessToken() || refreshToken) {
      await dispatch(authApi.endpoints.logout.initiate(refreshToken ? { refreshToken } : undefined));
    }
  } finally {
    clearSession(dispatch);
  }
});
