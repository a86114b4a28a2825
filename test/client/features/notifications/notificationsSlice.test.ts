import { NOTIFICATION_BUFFER_SIZE } from '../../../../src/contract/constants';
import { makeStore } from '../../../../src/client/app/store';
import {
  liveStreamConnectionChanged,
  notificationReceived,
  notificationsReducer,
  selectLiveNotifications,
  selectLiveStreamConnected,
} from '../../../../src/client/features/notifications/notificationsSlice';
import { notification } from './notificationFixtures';
import { logout } from '../../../../src/client/features/auth/session';
import { sessionExpired } from '../../../../src/client/api/authEvents';

describe('notifications live buffer', () => {
  it('keeps pushed notifications newest first, at most 50', () => {
    let state = notificationsReducer(undefined, { type: 'init' });
    for (let i = 0; i < NOTIFICATION_BUFFER_SIZE + 5; i += 1)
      state = notificationsReducer(state, notificationReceived(notification(1000 - i)));
    const live = state.live;
    expect(live).toHaveLength(NOTIFICATION_BUFFER_SIZE);
    expect(live[0].id).toBe(notification(1000 - (NOTIFICATION_BUFFER_SIZE + 4)).id);
    expect(live.at(-1)!.id).toBe(notification(1000 - 5).id);
  });

  it('moves a repeated notification (same id, more occurrences) to the top instead of duplicating it', () => {
    const store = makeStore();
    store.dispatch(notificationReceived(notification(1)));
    store.dispatch(notificationReceived(notification(2)));
    store.dispatch(notificationReceived(notification(1, { occurrences: 2 })));
    const live = selectLiveNotifications(store.getState());
    expect(live.map((n) => [n.id, n.occurrences])).toEqual([
      [notification(1).id, 2],
      [notification(2).id, 1],
    ]);
  });

  it('forgets the pushed notifications when the session ends, so the next account never sees them', async () => {
    const store = makeStore();
    store.dispatch(notificationReceived(notification(1, { workspaceId: null })));
    await store.dispatch(logout());
    expect(selectLiveNotifications(store.getState())).toEqual([]);

    store.dispatch(notificationReceived(notification(2)));
    store.dispatch(sessionExpired({ reason: 'Token refresh failed: 401' }));
    expect(selectLiveNotifications(store.getState())).toEqual([]);
  });

  it('tracks whether the live stream is connected', () => {
    const store = makeStore();
    expect(selectLiveStreamConnected(store.getState())).toBe(false);
    store.dispatch(liveStreamConnectionChanged(true));
    expect(selectLiveStreamConnected(store.getState())).toBe(true);
  });
});
