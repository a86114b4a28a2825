import { apiSlice } from '../../api/apiSlice';
import { sessionExpired } from '../../api/authEvents';
import type { AppStartListening } from '../../app/listeners';
import { saveTemporaryAvatar } from './userMapping';

// When the session ends because the tokens were rejected, nothing cached for that user may
// show up again (and the persisted copy is emptied with it), nor the avatar they picked.
export function authListeners(startAppListening: AppStartListening): void {
  startAppListening({
    actionCreator: sessionExpired,
    effect: (_action, api) => {
      saveTemporaryAvatar(null);
      api.dispatch(apiSlice.util.resetApiState());
    },
  });
}
