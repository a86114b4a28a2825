import { createAction } from '@reduxjs/toolkit';

// Actions the API layer dispatches about the session. They live here, not in the auth feature,
// so the base query does not depend on features (features react to them in their slices).

/** The stored tokens were rejected (or are missing): they are cleared; the user is signed out. */
export const sessionExpired = createAction<{ reason: string }>('auth/sessionExpired');

/** A refresh stored a new access token (the token lifecycle reschedules from it). */
export const accessTokenRefreshed = createAction<{ accessToken: string }>('auth/accessTokenRefreshed');
