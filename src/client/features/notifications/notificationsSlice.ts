import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { NOTIFICATION_BUFFER_SIZE } from '../../../contract/constants';
import type { NotificationDto } from '../../../contract/notifications';
import { apiSlice } from '../../api/apiSlice';
import { notificationsApi } from './notificationsApi';

// The live buffer of SPEC §4/§9: notifications delivered by the live stream, newest first, at
// most 50. The live stream hook dispatches notificationReceived(message.data) for messages of
// type 'notification' and liveStreamConnectionChanged(connected) as it opens and closes; while
// connected the bell stops polling the list.
export interface NotificationsState {
  live: NotificationDto[];
  liveConnected: boolean;
}

const initialState: NotificationsState = { live: [], liveConnected: false };

export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState,
  reducers: {
    notificationReceived(state, action: PayloadAction<NotificationDto>) {
      // A repeat of one condition arrives again with the same id (occurrences + 1): move it up.
      const rest = state.live.filter((n) => n.id !== action.payload.id);
      state.live = [action.payload, ...rest].slice(0, NOTIFICATION_BUFFER_SIZE);
    },
    liveStreamConnectionChanged(state, action: PayloadAction<boolean>) {
      state.liveConnected = action.payload;
    },
  },
  extraReducers: (builder) => {
    // Sign-in, sign-out and an ended session drop the user's cached answers; the pushed copies go
    // with them, or the next account to sign in here would see the previous one's notifications.
    builder.addMatcher(apiSlice.util.resetApiState.match, (state) => {
      state.live = [];
    });
    // Keep buffered copies in step with what the user just did, so the merged list agrees.
    builder.addMatcher(notificationsApi.endpoints.markNotificationsRead.matchFulfilled, (state, action) => {
      const ids = new Set(action.meta.arg.originalArgs);
      for (const n of state.live) if (ids.has(n.id)) n.isRead = true;
    });
    builder.addMatcher(notificationsApi.endpoints.markNotificationRead.matchFulfilled, (state, action) => {
      for (const n of state.live) if (n.id === action.payload.id) n.isRead = true;
    });
    builder.addMatcher(notificationsApi.endpoints.markAllNotificationsRead.matchFulfilled, (state, action) => {
      const { workspaceId } = action.meta.arg.originalArgs;
      for (const n of state.live)
        if (!workspaceId || n.workspaceId === workspaceId || n.workspaceId === null) n.isRead = true;
    });
    builder.addMatcher(notificationsApi.endpoints.archiveNotifications.matchFulfilled, (state, action) => {
      const ids = new Set(action.meta.arg.originalArgs);
      state.live = state.live.filter((n) => !ids.has(n.id));
    });
  },
  selectors: {
    selectLiveNotifications: (state) => state.live,
    selectLiveStreamConnected: (state) => state.liveConnected,
  },
});

export const { notificationReceived, liveStreamConnectionChanged } = notificationsSlice.actions;
export const { selectLiveNotifications, selectLiveStreamConnected } = notificationsSlice.selectors;
export const notificationsReducer = notificationsSlice.reducer;
