import { NOTIFICATION_DROPDOWN_ITEMS } from '../../../contract/constants';
import type {
  NotificationDto,
  NotificationListResult,
  NotificationUpdateResult,
  UnreadCountResult,
} from '../../../contract/notifications';
import { Paths } from '../../../contract/routes';
import { apiSlice } from '../../api/apiSlice';

// SPEC §7 Notifications. A workspaceId filter means that workspace plus the account-level
// notifications (docs/notifications.md); without one, everything of the user.
export interface NotificationListArgs {
  workspaceId?: string | null;
  isArchived?: boolean;
  limit?: number;
}

export interface WorkspaceFilterArgs {
  workspaceId?: string | null;
}

export const notificationsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getNotifications: build.query<NotificationListResult, NotificationListArgs>({
      query: ({ workspaceId, isArchived = false, limit = NOTIFICATION_DROPDOWN_ITEMS }) => ({
        url: Paths.notifications,
        params: { workspaceId, isArchived, limit },
      }),
      providesTags: ['Notifications'],
    }),
    getUnreadCount: build.query<UnreadCountResult, WorkspaceFilterArgs>({
      query: ({ workspaceId }) => ({ url: Paths.unreadCount, params: { workspaceId } }),
      providesTags: ['UnreadCount'],
    }),
    markNotificationsRead: build.mutation<NotificationUpdateResult, string[]>({
      query: (notificationIds) => ({ url: Paths.markRead, method: 'POST', body: { notificationIds } }),
      invalidatesTags: ['Notifications', 'UnreadCount'],
    }),
    markAllNotificationsRead: build.mutation<NotificationUpdateResult, WorkspaceFilterArgs>({
      query: ({ workspaceId }) => ({
        url: Paths.markAllRead,
        method: 'POST',
        body: workspaceId ? { workspaceId } : {},
      }),
      invalidatesTags: ['Notifications', 'UnreadCount'],
    }),
    archiveNotifications: build.mutation<NotificationUpdateResult, string[]>({
      query: (notificationIds) => ({ url: Paths.archive, method: 'POST', body: { notificationIds } }),
      invalidatesTags: ['Notifications', 'UnreadCount'],
    }),
    markNotificationRead: build.mutation<NotificationDto, string>({
      query: (id) => ({ url: Paths.notificationRead(id), method: 'POST' }),
      invalidatesTags: ['Notifications', 'UnreadCount'],
    }),
  }),
});

export const {
  useGetNotificationsQuery,
  useGetUnreadCountQuery,
  useMarkNotificationsReadMutation,
  useMarkAllNotificationsReadMutation,
  useArchiveNotificationsMutation,
  useMarkNotificationReadMutation,
} = notificationsApi;
