import type { ServerDto } from '../../../contract/servers';
import { Paths } from '../../../contract/routes';
import { apiSlice } from '../../api/apiSlice';

// The servers endpoints. The shell only needs the list (for the 'No tool servers connected'
// banner); the servers feature adds the rest here.
export const serversApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getServers: build.query<ServerDto[], string>({
      query: (workspaceId) => ({ url: Paths.servers(workspaceId) }),
      providesTags: (result, _error, workspaceId) => [
        { type: 'Servers' as const, id: workspaceId },
        ...(result ?? []).map((server) => ({ type: 'Server' as const, id: server.id })),
      ],
    }),
  }),
});

export const { useGetServersQuery } = serversApi;
