import { apiSlice } from '../api/apiSlice';
import { authReducer } from '../features/auth/authSlice';
import { workspaceReducer } from '../features/workspaces/workspaceSlice';
import { notificationsReducer } from '../features/notifications/notificationsSlice';
import { dialogsReducer } from './dialogsSlice';
import { liveReducer } from '../features/live/liveSlice';
import { serversCacheReducer } from '../features/servers/serversCacheSlice';

/** Every slice of the store. A feature adds its slice with one line here. */
export const reducers = {
  [apiSlice.reducerPath]: apiSlice.reducer,
  auth: authReducer,
  workspace: workspaceReducer,
  dialogs: dialogsReducer,
  notifications: notificationsReducer,
  live: liveReducer,
  serversCache: serversCacheReducer,
};

/**
 * Small client slices redux-persist saves across visits, besides the query cache (which is always
 * saved, filtered to 24 h). Tokens never go here: they stay under access_token/refresh_token.
 */
export const persistedSliceKeys: ReadonlyArray<keyof typeof reducers> = [];
