import type { NotificationSettings, UpdateNotificationSettingsBody } from '../../../contract/notifications';
import { Paths } from '../../../contract/routes';
import type { UpdateWorkspaceBody, WorkspaceDto } from '../../../contract/workspaces';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// Workspace settings calls (docs/settings.md "Workspace"): edit, delete, notification thresholds.
export const workspaceSettingsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    updateWorkspace: build.mutation<WorkspaceDto, { workspaceId: string; body: UpdateWorkspaceBody }>({
      query: ({ workspaceId, body }) => ({ url: Paths.workspace(workspaceId), method: 'PUT', body }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : ['Workspaces', { type: 'Workspace', id: workspaceId }],
    }),
    deleteWorkspace: build.mutation<NoContent, string>({
      query: (workspaceId) => ({ url: Paths.workspace(workspaceId), method: 'DELETE' }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error) => (error ? [] : ['Workspaces', 'Limits']),
    }),
    getNotificationSettings: build.query<NotificationSettings, string>({
      query: (workspaceId) => Paths.workspaceNotificationSettings(workspaceId),
      providesTags: (_result, _error, workspaceId) => [{ type: 'NotificationSettings', id: workspaceId }],
    }),
    updateNotificationSettings: build.mutation<
      NotificationSettings,
      { workspaceId: string; body: UpdateNotificationSettingsBody }
    >({
      query: ({ workspaceId, body }) => ({
        url: Paths.workspaceNotificationSettings(workspaceId),
        method: 'PUT',
        body,
      }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [{ type: 'NotificationSettings', id: workspaceId }],
    }),
  }),
});

export const {
  useUpdateWorkspaceMutation,
  useDeleteWorkspaceMutation,
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
} = workspaceSettingsApi;
