import { apiSlice } from '../../api/apiSlice';
import type { AppStartListening } from '../../app/listeners';
import { notificationReceived } from './notificationsSlice';

export function notificationsListeners(startAppListening: AppStartListening): void {
  // A pushed notification changes the unread count at once, not at the next 15 s poll.
  startAppListening({
    actionCreator: notificationReceived,
    effect: (_action, api) => {
      api.dispatch(apiSlice.util.invalidateTags(['UnreadCount']));
    },
  });
}
