import type { CanCreateWorkspaceResult } from '../../../contract/billing';
import { Paths } from '../../../contract/routes';
import type { WorkspaceDto, WorkspaceType } from '../../../contract/workspaces';
import { apiSlice, type NoArg } from '../../api/apiSlice';
import { toCreateWorkspaceRequest, type CreateWorkspaceInput } from './createWorkspaceInput';

/** SPEC §7: the list answer is either an array or { workspaces }. */
export function normalizeWorkspaceList(raw: unknown): WorkspaceDto[] {
  if (Array.isArray(raw)) return raw as WorkspaceDto[];
  if (raw && typeof raw === 'object' && Array.isArray((raw as { workspaces?: unknown }).workspaces)) {
    return (raw as { workspaces: WorkspaceDto[] }).workspaces;
  }
  return [];
}

export const workspacesApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getWorkspaces: build.query<WorkspaceDto[], NoArg>({
      query: () => Paths.workspaces,
      transformResponse: normalizeWorkspaceList,
      providesTags: (result) => [
        'Workspaces',
        ...(result ?? []).map((workspace) => ({ type: 'Workspace' as const, id: workspace.id })),
      ],
    }),
    getWorkspace: build.query<WorkspaceDto, string>({
      query: (workspaceId) => Paths.workspace(workspaceId),
      providesTags: (_result, _error, workspaceId) => [{ type: 'Workspace', id: workspaceId }],
    }),
    createWorkspace: build.mutation<WorkspaceDto, CreateWorkspaceInput>({
      query: (input) => ({ url: Paths.workspaces, method: 'POST', body: toCreateWorkspaceRequest(input) }),
      invalidatesTags: ['Workspaces', 'Limits'],
    }),
    /** GET /billing/can-create-workspace?type= (personal by default). */
    canCreateWorkspace: build.query<CanCreateWorkspaceResult, WorkspaceType | NoArg>({
      query: (type) => ({ url: Paths.canCreateWorkspace, params: { type: type || 'personal' } }),
      // SPEC §6: a failing check means "allowed" — retrying would only keep 'Checking limits...' up.
      extraOptions: { maxAttempts: 1 },
      providesTags: ['Limits'],
    }),
  }),
});

export const {
  useGetWorkspacesQuery,
  useGetWorkspaceQuery,
  useCreateWorkspaceMutation,
  useCanCreateWorkspaceQuery,
  useLazyCanCreateWorkspaceQuery,
} = workspacesApi;
