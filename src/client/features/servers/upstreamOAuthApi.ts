import { UpstreamOAuthPaths, type UpstreamOAuthConnectionDto } from '../../../contract/upstreamOAuth';
import { apiSlice, type NoContent } from '../../api/apiSlice';
import type { ServerRef } from './serversApi';

// OAuth connections of servers that require it (docs/access.md "Servers that require OAuth").
export const upstreamOAuthApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getUpstreamOAuth: build.query<UpstreamOAuthConnectionDto[], string>({
      query: (workspaceId) => UpstreamOAuthPaths.list(workspaceId),
      transformResponse: (response: { connections: UpstreamOAuthConnectionDto[] }) => response.connections,
      providesTags: (_result, _error, workspaceId) => [{ type: 'UpstreamOAuth' as const, id: workspaceId }],
    }),
    /** Starts connecting: the browser then goes to the server's authorization server and back. */
    connectUpstreamOAuth: build.mutation<
      { authorizationUrl: string },
      ServerRef & { returnPath: string; clientId?: string; clientSecret?: string }
    >({
      query: ({ workspaceId, serverId, ...body }) => ({
        url: UpstreamOAuthPaths.connect(workspaceId, serverId),
        method: 'POST',
        body,
      }),
      extraOptions: { maxAttempts: 1 },
    }),
    disconnectUpstreamOAuth: build.mutation<NoContent, ServerRef>({
      query: ({ workspaceId, serverId }) => ({
        url: UpstreamOAuthPaths.connection(workspaceId, serverId),
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'UpstreamOAuth' as const, id: workspaceId }],
    }),
  }),
});

export const { useGetUpstreamOAuthQuery, useConnectUpstreamOAuthMutation, useDisconnectUpstreamOAuthMutation } =
  upstreamOAuthApi;
