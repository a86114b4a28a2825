import { ErrorText } from '../../../contract/errors';
import { Paths } from '../../../contract/routes';
import type {
  CreateExporterBody,
  ExporterDto,
  ExporterMetrics,
  ExporterTestResult,
  UpdateExporterBody,
} from '../../../contract/telemetry';
import { apiSlice } from '../../api/apiSlice';
import { clientError, type ApiError } from '../../api/apiError';
import type { ApiRequestArgs } from '../../api/request';
import { getAccessToken } from '../../api/tokens';

// SPEC §7 Telemetry exporters. SPEC §5: every exporter action needs the stored token and is
// refused with 'No authentication token' without it (before any request is made).
const exportersPath = (workspaceId: string) => `${Paths.workspace(workspaceId)}/telemetry/exporters`;
const exporterPath = (workspaceId: string, id: string) => `${exportersPath(workspaceId)}/${id}`;

/** Runs the request through the shared base query only when a token is stored. */
async function withStoredToken(
  request: ApiRequestArgs,
  baseQuery: (arg: ApiRequestArgs) => unknown,
): Promise<{ data: unknown } | { error: ApiError }> {
  if (!getAccessToken()) return { error: clientError(ErrorText.noAuthToken) };
  return (await baseQuery(request)) as { data: unknown } | { error: ApiError };
}

const api = apiSlice.enhanceEndpoints({ addTagTypes: ['Exporters', 'ExporterMetrics'] });

export const telemetryApi = api.injectEndpoints({
  endpoints: (build) => ({
    getExporters: build.query<ExporterDto[], string>({
      queryFn: async (workspaceId, _api, _extra, baseQuery) => {
        const result = await withStoredToken({ url: exportersPath(workspaceId) }, baseQuery);
        return 'error' in result
          ? { error: result.error }
          : { data: (result.data as { exporters: ExporterDto[] }).exporters };
      },
      providesTags: (_result, _error, workspaceId) => [{ type: 'Exporters', id: workspaceId }],
    }),
    createExporter: build.mutation<ExporterDto, { workspaceId: string; body: CreateExporterBody }>({
      queryFn: async ({ workspaceId, body }, _api, _extra, baseQuery) => {
        const result = await withStoredToken({ url: exportersPath(workspaceId), method: 'POST', body }, baseQuery);
        return 'error' in result ? { error: result.error } : { data: result.data as ExporterDto };
      },
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'Exporters', id: workspaceId }]),
    }),
    updateExporter: build.mutation<ExporterDto, { workspaceId: string; id: string; body: UpdateExporterBody }>({
      queryFn: async ({ workspaceId, id, body }, _api, _extra, baseQuery) => {
        const result = await withStoredToken({ url: exporterPath(workspaceId, id), method: 'PUT', body }, baseQuery);
        return 'error' in result ? { error: result.error } : { data: result.data as ExporterDto };
      },
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'Exporters', id: workspaceId }]),
    }),
    deleteExporter: build.mutation<null, { workspaceId: string; id: string }>({
      queryFn: async ({ workspaceId, id }, _api, _extra, baseQuery) => {
        const result = await withStoredToken({ url: exporterPath(workspaceId, id), method: 'DELETE' }, baseQuery);
        return 'error' in result ? { error: result.error } : { data: null };
      },
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'Exporters', id: workspaceId }]),
    }),
    testExporter: build.mutation<ExporterTestResult, { workspaceId: string; id: string }>({
      queryFn: async ({ workspaceId, id }, _api, _extra, baseQuery) => {
        const result = await withStoredToken(
          { url: `${exporterPath(workspaceId, id)}/test`, method: 'POST' },
          baseQuery,
        );
        return 'error' in result ? { error: result.error } : { data: result.data as ExporterTestResult };
      },
      invalidatesTags: (_result, _error, { id }) => [{ type: 'ExporterMetrics', id }],
    }),
    getExporterMetrics: build.query<ExporterMetrics, { workspaceId: string; id: string }>({
      queryFn: async ({ workspaceId, id }, _api, _extra, baseQuery) => {
        const result = await withStoredToken({ url: `${exporterPath(workspaceId, id)}/metrics` }, baseQuery);
        return 'error' in result ? { error: result.error } : { data: result.data as ExporterMetrics };
      },
      providesTags: (_result, _error, { id }) => [{ type: 'ExporterMetrics', id }],
    }),
  }),
});

export const {
  useGetExportersQuery,
  useCreateExporterMutation,
  useUpdateExporterMutation,
  useDeleteExporterMutation,
  useTestExporterMutation,
  useGetExporterMetricsQuery,
} = telemetryApi;
