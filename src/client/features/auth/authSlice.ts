import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { sessionExpired } from '../../api/authEvents';
import { getAccessToken, getRefreshToken } from '../../api/tokens';
import { authApi } from './authApi';
import type { User } from './userMapping';

/**
 * 'unknown' until the token lifecycle has checked the stored tokens (the shell shows a skeleton,
 * not the login page); 'signedOut' at once when there are none.
 */
export type AuthStatus = 'unknown' | 'signedIn' | 'signedOut';

export interface AuthState {
  user: User | null;
  status: AuthStatus;
}

function initialAuthState(): AuthState {
  return { user: null, status: getAccessToken() || getRefreshToken() ? 'unknown' : 'signedOut' };
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** Tokens are stored and accepted; the profile may still be missing (shown as 'User'). */
    signedIn(state, action: PayloadAction<User | null>) {
      state.status = 'signedIn';
      state.user = action.payload;
    },
    signedOut(state) {
      state.status = 'signedOut';
      state.user = null;
    },
    userUpdated(state, action: PayloadAction<User>) {
      state.user = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionExpired, (state) => {
        state.status = 'signedOut';
        state.user = null;
      })
      .addMatcher(authApi.endpoints.getMe.matchFulfilled, (state, action) => {
        if (state.status === 'signedIn') state.user = action.payload;
      });
  },
  selectors: {
    selectCurrentUser: (state) => state.user,
    selectIsSignedIn: (state) => state.status === 'signedIn',
    selectAuthStatus: (state) => state.status,
  },
});

export const { signedIn, signedOut, userUpdated } = authSlice.actions;
export const { selectCurrentUser, selectIsSignedIn, selectAuthStatus } = authSlice.selectors;
export const authReducer = authSlice.reducer;
