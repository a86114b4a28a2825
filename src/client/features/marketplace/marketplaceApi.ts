import type { CatalogDetail, CatalogListResult } from '../../../contract/marketplace';
import { Paths } from '../../../contract/routes';
import type { RegisterServerBody, ServerDto } from '../../../contract/servers';
import {
  marketplaceDeployPath,
  type DeployCatalogPackageBody,
  type DeployCatalogPackageResult,
} from '../../../contract/packageLaunch';
import { apiSlice, type NoArg } from '../../api/apiSlice';

// The marketplace catalog and its two actions: registering a remote catalog server as a tool server
// of the workspace (the servers API, with its transport and write-only upstream headers), and
// deploying a catalog package (the marketplace's deploy route: config, secrets as keys, deploy).
export const marketplaceApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getCatalog: build.query<CatalogListResult, NoArg>({
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
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [{ type: 'Servers', id: workspaceId }, 'Analytics'],
    }),
    deployCatalogPackage: build.mutation<
      DeployCatalogPackageResult,
      { workspaceId: string; body: DeployCatalogPackageBody }
    >({
      query: ({ workspaceId, body }) => ({ url: marketplaceDeployPath(workspaceId), method: 'POST', body }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error, { workspaceId }) =>
        error
          ? []
          : [
              { type: 'Deployments', id: workspaceId },
              { type: 'Servers', id: workspaceId },
              { type: 'WorkspaceKeys', id: workspaceId },
            ],
    }),
  }),
});

export const {
  useGetCatalogQuery,
  useGetCatalogEntryQuery,
  useConnectCatalogServerMutation,
  useDeployCatalogPackageMutation,
} = marketplaceApi;
