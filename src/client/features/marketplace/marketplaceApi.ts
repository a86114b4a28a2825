import type { CatalogDetail, CatalogListResult } from '../../../contract/marketplace';
import { Paths } from '../../../contract/routes';
import type { RegisterServerBody, ServerDto } from '../../../contract/servers';
import { apiSlice } from '../../api/apiSlice';

// The marketplace catalog and the one action that writes: registering a catalog server as a tool
// server of the workspace (the servers API, with its transport and write-only upstream headers).
export const marketplaceApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getCatalog: build.query<CatalogListResult, void>({
      query: () => Paths.marketplace,
      providesTags: ['Catalog'],
    }),
    getCatalogEntry: build.query<CatalogDetail, string>({
      query: (slug) => Paths.marketplaceServer(encodeURIComponent(slug)),
      providesTags: (_result, _error, slug) => [{ type: 'Catalog', id: slug }],
    }),
    connectCatalogServer: build.mutation<ServerDto, { workspaceId: string; body: RegisterServerBody }>({
      query: ({ workspaceId, body }) => ({ url: Paths.servers(workspaceId), method: 'POST', body }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'Servers', id: workspaceId }, 'Analytics']),
    }),
  }),
});

export const { useGetCatalogQuery, useGetCatalogEntryQuery, useConnectCatalogServerMutation } = marketplaceApi;
