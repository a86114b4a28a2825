import { createAsyncThunk } from '@reduxjs/toolkit';
import { userUpdated, type AuthState } from './authSlice';
import { saveTemporaryAvatar, withTemporaryAvatar } from './userMapping';

/**
 * Chooses (a URL) or drops (null) the temporary avatar: saved locally so it survives reloads
 * and wins over the server's (SPEC §3), and shown at once for the signed-in user.
 */
export const setTemporaryAvatar = createAsyncThunk.withTypes<{ state: { auth: AuthState } }>()(
  'auth/setTemporaryAvatar',
  (url: string | null, { dispatch, getState }) => {
    saveTemporaryAvatar(url);
    const user = getState().auth.user;
    if (user) dispatch(userUpdated(withTemporaryAvatar(user, url)));
  },
);
