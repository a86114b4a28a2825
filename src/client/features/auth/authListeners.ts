import { apiSlice } from '../../api/apiSlice';
import { sessionExpired } from '../../api/authEvents';
import { startAppListening } from '../../app/listeners';

// When the session ends because the tokens were rejected, nothing cached for that user may
// show up again (and the persisted copy is emptied with it).
startAppListening({
  actionCreator: sessionExpired,
  effect: (_action, api) => {
    api.dispatch(apiSlice.util.resetApiState());
  },
});
