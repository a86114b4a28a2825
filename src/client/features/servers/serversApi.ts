import type { RegisterServerBody, ServerDto, ServerHealthResult, UpdateServerBody } from '../../../contract/servers';
import type { PatchListResult, SchemaDto, SchemaListResult, SchemaVersionListResult } from '../../../contract/schemas';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// The servers endpoints (SPEC §7 Servers and Schemas). The shell reads only the list (for the
// 'No tool servers connected' banner); the servers page, schema studio and live stream use the rest.
export interface ServerRef {
  workspaceId: string;
  serverId: string;
}
export interface SchemaRef extends ServerRef {
  schemaId: string;
}

/** Puts a fresh copy of one server into the workspace's cached list (added if it is new). */
export function upsertCachedServer(server: ServerDto) {
  return serversApi.util.updateQueryData('getServers', server.workspaceId, (draft) => {
    const index = draft.findIndex((s) => s.id === server.id);
    if (index === -1) draft.push(server);
    else draft[index] = server;
  });
}

export const serversApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getServers: build.query<ServerDto[], string>({
      query: (workspaceId) => ({ url: Paths.servers(workspaceId) }),
      providesTags: (result, _error, workspaceId) => [
        { type: 'Servers' as const, id: workspaceId },
        ...(result ?? []).map((server) => ({ type: 'Server' as const, id: server.id })),
      ],
    }),
    getServer: build.query<ServerDto, ServerRef>({
      query: ({ workspaceId, serverId }) => ({ url: Paths.server(workspaceId, serverId) }),
      providesTags: (_result, _error, { serverId }) => [{ type: 'Server', id: serverId }],
    }),
    registerServer: build.mutation<ServerDto, { workspaceId: string; body: RegisterServerBody }>({
      query: ({ workspaceId, body }) => ({
        url: Paths.servers(workspaceId),
        method: 'POST',
        body: {
          url: body.url,
          name: body.name,
          description: body.description ?? '',
          ...(body.transport ? { transport: body.transport } : {}),
          ...(body.headers ? { headers: body.headers } : {}),
        },
      }),
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'Servers', id: workspaceId }, 'Analytics'],
    }),
    updateServer: build.mutation<ServerDto, ServerRef & { body: UpdateServerBody }>({
      query: ({ workspaceId, serverId, body }) => ({ url: Paths.server(workspaceId, serverId), method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(upsertCachedServer(data));
      },
      invalidatesTags: (_result, _error, { serverId }) => [{ type: 'Server', id: serverId }],
    }),
    deleteServer: build.mutation<NoContent, ServerRef>({
      query: ({ workspaceId, serverId }) => ({ url: Paths.server(workspaceId, serverId), method: 'DELETE' }),
      async onQueryStarted({ workspaceId, serverId }, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(() => true).catch(() => false);
        if (ok)
          dispatch(
            serversApi.util.updateQueryData('getServers', workspaceId, (draft) =>
              draft.filter((s) => s.id !== serverId),
            ),
          );
      },
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'Servers', id: workspaceId }, 'Analytics'],
    }),
    checkServerHealth: build.mutation<ServerHealthResult, ServerRef>({
      query: ({ workspaceId, serverId }) => ({ url: Paths.serverHealth(workspaceId, serverId), method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(upsertCachedServer(data.server));
      },
    }),
    getSchemas: build.query<SchemaListResult, ServerRef>({
      query: ({ workspaceId, serverId }) => ({ url: Paths.schemas(workspaceId, serverId) }),
      providesTags: (_result, _error, { serverId }) => [{ type: 'Schemas', id: serverId }],
    }),
    getSchemaVersions: build.query<SchemaVersionListResult, SchemaRef>({
      query: ({ workspaceId, serverId, schemaId }) => ({
        url: `${Paths.schemas(workspaceId, serverId)}/${schemaId}/versions`,
      }),
      // Also the server's tag: a discovery that adds versions refreshes every open history.
      providesTags: (_result, _error, { serverId, schemaId }) => [
        { type: 'Schemas', id: `versions-${schemaId}` },
        { type: 'Schemas', id: serverId },
      ],
    }),
    getSchemaPatches: build.query<PatchListResult, SchemaRef>({
      query: ({ workspaceId, serverId, schemaId }) => ({
        url: `${Paths.schemas(workspaceId, serverId)}/${schemaId}/patches`,
      }),
      providesTags: (_result, _error, { schemaId }) => [{ type: 'Schemas', id: `versions-${schemaId}` }],
    }),
    rollbackSchema: build.mutation<SchemaDto, SchemaRef & { version: number }>({
      query: ({ workspaceId, serverId, schemaId, version }) => ({
        url: `${Paths.schemas(workspaceId, serverId)}/${schemaId}/rollback`,
        method: 'POST',
        body: { version },
      }),
      invalidatesTags: (_result, _error, { serverId, schemaId }) => [
        { type: 'Schemas', id: serverId },
        { type: 'Schemas', id: `versions-${schemaId}` },
      ],
    }),
    discoverSchemas: build.mutation<{ schemaCount: number }, ServerRef>({
      query: ({ workspaceId, serverId }) => ({
        url: `${Paths.schemas(workspaceId, serverId)}/discover`,
        method: 'POST',
        body: {},
      }),
      invalidatesTags: (_result, _error, { serverId }) => [
        { type: 'Schemas', id: serverId },
        { type: 'Server', id: serverId },
      ],
    }),
  }),
});

export const {
  useGetServersQuery,
  useGetServerQuery,
  useRegisterServerMutation,
  useUpdateServerMutation,
  useDeleteServerMutation,
  useCheckServerHealthMutation,
  useGetSchemasQuery,
  useGetSchemaVersionsQuery,
  useGetSchemaPatchesQuery,
  useRollbackSchemaMutation,
  useDiscoverSchemasMutation,
} = serversApi;
