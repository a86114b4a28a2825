import type {
  CreateIntegrationBody,
  CreatedIntegrationDto,
  DeliveryOutcome,
  IntegrationActivityDto,
  IntegrationDto,
  IntegrationKind,
  UpdateIntegrationBody,
} from '../../../contract/integrations';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// SPEC §7 Integrations (docs/integrations.md). The list is tagged per workspace, each
// integration's activity log per integration, so a test or a resend refetches only that log.
const integrationsPath = (workspaceId: string) => `${Paths.workspace(workspaceId)}/integrations`;
const integrationPath = (workspaceId: string, id: string) => `${integrationsPath(workspaceId)}/${id}`;

const api = apiSlice.enhanceEndpoints({ addTagTypes: ['Integrations', 'IntegrationActivities'] });

export const integrationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getIntegrations: build.query<IntegrationDto[], string>({
      query: (workspaceId) => ({ url: integrationsPath(workspaceId) }),
      transformResponse: (response: { integrations: IntegrationDto[] }) => response.integrations,
      providesTags: (_result, _error, workspaceId) => [{ type: 'Integrations', id: workspaceId }],
    }),
    createIntegration: build.mutation<CreatedIntegrationDto, { workspaceId: string; body: CreateIntegrationBody }>({
      query: ({ workspaceId, body }) => ({ url: integrationsPath(workspaceId), method: 'POST', body }),
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'Integrations', id: workspaceId }]),
    }),
    updateIntegration: build.mutation<IntegrationDto, { workspaceId: string; id: string; body: UpdateIntegrationBody }>(
      {
        query: ({ workspaceId, id, body }) => ({ url: integrationPath(workspaceId, id), method: 'PUT', body }),
        invalidatesTags: (_result, error, { workspaceId }) =>
          error ? [] : [{ type: 'Integrations', id: workspaceId }],
      },
    ),
    deleteIntegration: build.mutation<NoContent, { workspaceId: string; id: string }>({
      query: ({ workspaceId, id }) => ({ url: integrationPath(workspaceId, id), method: 'DELETE' }),
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'Integrations', id: workspaceId }]),
    }),
    /** A saved integration (id) with an optional config to try, or an unsaved kind + config. */
    testIntegration: build.mutation<
      DeliveryOutcome,
      { workspaceId: string; id?: string; kind?: IntegrationKind; config?: Record<string, unknown> }
    >({
      query: ({ workspaceId, id, kind, config }) =>
        id
          ? { url: `${integrationPath(workspaceId, id)}/test`, method: 'POST', body: config ? { config } : {} }
          : { url: `${integrationsPath(workspaceId)}/test`, method: 'POST', body: { kind, config } },
      invalidatesTags: (_result, _error, { workspaceId, id }) =>
        id
          ? [
              { type: 'IntegrationActivities', id },
              { type: 'Integrations', id: workspaceId },
            ]
          : [],
    }),
    getIntegrationActivities: build.query<
      IntegrationActivityDto[],
      { workspaceId: string; id: string; limit?: number }
    >({
      query: ({ workspaceId, id, limit = 50 }) => ({
        url: `${integrationPath(workspaceId, id)}/activities`,
        params: { limit },
      }),
      transformResponse: (response: { activities: IntegrationActivityDto[] }) => response.activities,
      providesTags: (_result, _error, { id }) => [{ type: 'IntegrationActivities', id }],
    }),
    resendDelivery: build.mutation<{ deliveryId: string }, { workspaceId: string; id: string; activityId: string }>({
      query: ({ workspaceId, id, activityId }) => ({
        url: `${integrationPath(workspaceId, id)}/activities/${activityId}/resend`,
        method: 'POST',
      }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [{ type: 'IntegrationActivities', id }]),
    }),
  }),
});

export const {
  useGetIntegrationsQuery,
  useCreateIntegrationMutation,
  useUpdateIntegrationMutation,
  useDeleteIntegrationMutation,
  useTestIntegrationMutation,
  useGetIntegrationActivitiesQuery,
  useResendDeliveryMutation,
} = integrationsApi;
