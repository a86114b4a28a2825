import type {
  CreateDeploymentConfigBody,
  DeploymentConfigDto,
  DeploymentDto,
  DeploymentLogsResult,
  UpdateDeploymentConfigBody,
} from '../../../contract/deployments';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// The deployment endpoints of SPEC §7. The list of configs carries each one's latest deployment,
// which the live stream keeps current (liveDeployments.ts); logs are one cache entry per
// deployment that live lines are appended to.
export interface LogsArg {
  deploymentId: string;
  /** Lines before this seq (loading earlier lines). */
  before?: number;
}

export const LOG_PAGE = 500;

export const deploymentsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getDeploymentConfigs: build.query<DeploymentConfigDto[], string>({
      query: (workspaceId) => ({ url: Paths.deploymentConfigs, params: { workspace_id: workspaceId } }),
      providesTags: (_result, _error, workspaceId) => [{ type: 'Deployments', id: workspaceId }],
    }),
    createDeploymentConfig: build.mutation<DeploymentConfigDto, CreateDeploymentConfigBody>({
      query: (body) => ({ url: Paths.deploymentConfigCreate, method: 'POST', body }),
      invalidatesTags: (_result, _error, body) => [{ type: 'Deployments', id: body.workspace_id }],
    }),
    updateDeploymentConfig: build.mutation<
      DeploymentConfigDto,
      { workspaceId: string; configId: string; body: UpdateDeploymentConfigBody }
    >({
      query: ({ configId, body }) => ({ url: Paths.deploymentConfig(configId), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'Deployments', id: workspaceId }],
    }),
    deleteDeploymentConfig: build.mutation<NoContent, { workspaceId: string; configId: string }>({
      query: ({ configId }) => ({ url: Paths.deploymentConfig(configId), method: 'DELETE' }),
      invalidatesTags: (_result, _error, { workspaceId }) => [
        { type: 'Deployments', id: workspaceId },
        { type: 'Servers', id: workspaceId },
      ],
    }),
    deployConfig: build.mutation<DeploymentDto, { workspaceId: string; configId: string }>({
      query: ({ configId }) => ({ url: Paths.deploymentConfigDeploy(configId), method: 'POST' }),
      invalidatesTags: (_result, _error, { workspaceId }) => [
        { type: 'Deployments', id: workspaceId },
        { type: 'Servers', id: workspaceId },
      ],
    }),
    restartDeployment: build.mutation<DeploymentDto, { workspaceId: string; deploymentId: string }>({
      query: ({ deploymentId }) => ({ url: Paths.deploymentRestart(deploymentId), method: 'POST' }),
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'Deployments', id: workspaceId }],
    }),
    stopDeployment: build.mutation<DeploymentDto, { workspaceId: string; deploymentId: string }>({
      query: ({ deploymentId }) => ({ url: Paths.deployment(deploymentId), method: 'DELETE' }),
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'Deployments', id: workspaceId }],
    }),
    getDeploymentLogs: build.query<DeploymentLogsResult, LogsArg>({
      query: ({ deploymentId, before }) => ({
        url: Paths.deploymentLogs(deploymentId),
        params: { limit: LOG_PAGE, ...(before === undefined ? {} : { before }) },
      }),
      // Logs are live: always fetch anew when the viewer opens.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetDeploymentConfigsQuery,
  useCreateDeploymentConfigMutation,
  useUpdateDeploymentConfigMutation,
  useDeleteDeploymentConfigMutation,
  useDeployConfigMutation,
  useRestartDeploymentMutation,
  useStopDeploymentMutation,
  useGetDeploymentLogsQuery,
  useLazyGetDeploymentLogsQuery,
} = deploymentsApi;
