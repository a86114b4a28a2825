import type {
  CreatedPlatformKeyDto,
  CreatePlatformKeyBody,
  CreateWorkspaceKeyBody,
  PlatformKeyDto,
  PlatformKeyListResult,
  UpdatePlatformKeyBody,
  UpdateWorkspaceKeyBody,
  WorkspaceKeyDto,
} from '../../../contract/keys';
import { Paths } from '../../../contract/routes';
import type { WorkspaceDto } from '../../../contract/workspaces';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// SPEC §7 Platform keys and Workspace keys, and the workspace's require-a-key switch
// (docs/access.md). Each list is tagged per workspace.
const platformKeys = (ws: string) => `${Paths.workspace(ws)}/platform/keys`;
const workspaceKeys = (ws: string) => `${Paths.workspace(ws)}/keys`;

export const keysApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getPlatformKeys: build.query<PlatformKeyListResult, string>({
      query: (workspaceId) => platformKeys(workspaceId),
      providesTags: (_r, _e, workspaceId) => [{ type: 'PlatformKeys', id: workspaceId }],
    }),
    createPlatformKey: build.mutation<CreatedPlatformKeyDto, { workspaceId: string; body: CreatePlatformKeyBody }>({
      query: ({ workspaceId, body }) => ({ url: platformKeys(workspaceId), method: 'POST', body }),
      invalidatesTags: (_r, error, { workspaceId }) => (error ? [] : [{ type: 'PlatformKeys', id: workspaceId }]),
    }),
    updatePlatformKey: build.mutation<
      PlatformKeyDto,
      { workspaceId: string; keyId: string; body: UpdatePlatformKeyBody }
    >({
      query: ({ workspaceId, keyId, body }) => ({ url: `${platformKeys(workspaceId)}/${keyId}`, method: 'PUT', body }),
      invalidatesTags: (_r, error, { workspaceId }) => (error ? [] : [{ type: 'PlatformKeys', id: workspaceId }]),
    }),
    revokePlatformKey: build.mutation<PlatformKeyDto, { workspaceId: string; keyId: string; reason: string }>({
      query: ({ workspaceId, keyId, reason }) => ({
        url: `${platformKeys(workspaceId)}/${keyId}`,
        method: 'DELETE',
        body: reason ? { reason } : {},
      }),
      invalidatesTags: (_r, error, { workspaceId }) => (error ? [] : [{ type: 'PlatformKeys', id: workspaceId }]),
    }),
    getWorkspaceKeys: build.query<WorkspaceKeyDto[], string>({
      query: (workspaceId) => workspaceKeys(workspaceId),
      transformResponse: (response: { keys: WorkspaceKeyDto[] }) => response.keys,
      providesTags: (_r, _e, workspaceId) => [{ type: 'WorkspaceKeys', id: workspaceId }],
    }),
    createWorkspaceKey: build.mutation<WorkspaceKeyDto, { workspaceId: string; body: CreateWorkspaceKeyBody }>({
      query: ({ workspaceId, body }) => ({ url: workspaceKeys(workspaceId), method: 'POST', body }),
      invalidatesTags: (_r, error, { workspaceId }) => (error ? [] : [{ type: 'WorkspaceKeys', id: workspaceId }]),
    }),
    updateWorkspaceKey: build.mutation<
      WorkspaceKeyDto,
      { workspaceId: string; keyId: string; body: UpdateWorkspaceKeyBody }
    >({
      query: ({ workspaceId, keyId, body }) => ({ url: `${workspaceKeys(workspaceId)}/${keyId}`, method: 'PUT', body }),
      invalidatesTags: (_r, error, { workspaceId }) => (error ? [] : [{ type: 'WorkspaceKeys', id: workspaceId }]),
    }),
    deleteWorkspaceKey: build.mutation<NoContent, { workspaceId: string; keyId: string }>({
      query: ({ workspaceId, keyId }) => ({ url: `${workspaceKeys(workspaceId)}/${keyId}`, method: 'DELETE' }),
      invalidatesTags: (_r, error, { workspaceId }) => (error ? [] : [{ type: 'WorkspaceKeys', id: workspaceId }]),
    }),
    /** PUT /workspaces/{id} { requirePlatformKey }: the workspace list carries the flag, so it reloads. */
    setRequirePlatformKey: build.mutation<WorkspaceDto, { workspaceId: string; required: boolean }>({
      query: ({ workspaceId, required }) => ({
        url: Paths.workspace(workspaceId),
        method: 'PUT',
        body: { requirePlatformKey: required },
      }),
      invalidatesTags: (_r, error, { workspaceId }) =>
        error ? [] : ['Workspaces', { type: 'Workspace', id: workspaceId }],
    }),
  }),
});

export const {
  useGetPlatformKeysQuery,
  useCreatePlatformKeyMutation,
  useUpdatePlatformKeyMutation,
  useRevokePlatformKeyMutation,
  useGetWorkspaceKeysQuery,
  useCreateWorkspaceKeyMutation,
  useUpdateWorkspaceKeyMutation,
  useDeleteWorkspaceKeyMutation,
  useSetRequirePlatformKeyMutation,
} = keysApi;
