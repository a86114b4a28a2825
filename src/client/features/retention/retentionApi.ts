import { Paths } from '../../../contract/routes';
import type { UpdateRetentionBody, WorkspaceRetention } from '../../../contract/retention';
import type { ExportSchedule, UpdateExportScheduleBody } from '../../../contract/dataExport';
import { apiSlice } from '../../api/apiSlice';

// How long the workspace keeps its data (docs/operations.md "Retention").
export const retentionApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getRetention: build.query<WorkspaceRetention, string>({
      query: (workspaceId) => Paths.workspaceRetention(workspaceId),
      providesTags: (_result, _error, workspaceId) => [{ type: 'Retention', id: workspaceId }],
    }),
    updateRetention: build.mutation<WorkspaceRetention, { workspaceId: string; body: UpdateRetentionBody }>({
      query: ({ workspaceId, body }) => ({ url: Paths.workspaceRetention(workspaceId), method: 'PUT', body }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [{ type: 'Retention', id: workspaceId }, 'Sessions', 'Analytics'],
    }),
    getExportSchedule: build.query<ExportSchedule, string>({
      query: (workspaceId) => Paths.exportSchedule(workspaceId),
      providesTags: (_result, _error, workspaceId) => [{ type: 'Retention', id: `schedule-${workspaceId}` }],
    }),
    updateExportSchedule: build.mutation<ExportSchedule, { workspaceId: string; body: UpdateExportScheduleBody }>({
      query: ({ workspaceId, body }) => ({ url: Paths.exportSchedule(workspaceId), method: 'PUT', body }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [{ type: 'Retention', id: `schedule-${workspaceId}` }],
    }),
  }),
});

export const {
  useGetRetentionQuery,
  useUpdateRetentionMutation,
  useGetExportScheduleQuery,
  useUpdateExportScheduleMutation,
} = retentionApi;
