import {
  AlertRulePaths,
  type AlertFiringDto,
  type AlertPreviewResult,
  type AlertRuleDto,
  type CreateAlertRuleBody,
  type UpdateAlertRuleBody,
} from '../../../contract/alertRules';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// Alert rules (docs/notifications.md "Alert rules"): the workspace's rules, each rule's firings,
// and the 7-day preview of a rule being written. Rules are tagged per workspace; a rule's history
// per rule, so a change refetches only what it touched.
const api = apiSlice.enhanceEndpoints({ addTagTypes: ['AlertRules', 'AlertFirings'] });

export const alertRulesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAlertRules: build.query<AlertRuleDto[], string>({
      query: (workspaceId) => ({ url: AlertRulePaths.list(workspaceId) }),
      transformResponse: (response: { rules: AlertRuleDto[] }) => response.rules,
      providesTags: (_result, _error, workspaceId) => [{ type: 'AlertRules', id: workspaceId }],
    }),
    createAlertRule: build.mutation<AlertRuleDto, { workspaceId: string; body: CreateAlertRuleBody }>({
      query: ({ workspaceId, body }) => ({ url: AlertRulePaths.list(workspaceId), method: 'POST', body }),
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'AlertRules', id: workspaceId }]),
    }),
    updateAlertRule: build.mutation<AlertRuleDto, { workspaceId: string; id: string; body: UpdateAlertRuleBody }>({
      query: ({ workspaceId, id, body }) => ({ url: AlertRulePaths.one(workspaceId, id), method: 'PATCH', body }),
      invalidatesTags: (_result, error, { workspaceId, id }) =>
        error
          ? []
          : [
              { type: 'AlertRules', id: workspaceId },
              { type: 'AlertFirings', id },
            ],
    }),
    deleteAlertRule: build.mutation<NoContent, { workspaceId: string; id: string }>({
      query: ({ workspaceId, id }) => ({ url: AlertRulePaths.one(workspaceId, id), method: 'DELETE' }),
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'AlertRules', id: workspaceId }]),
    }),
    getAlertFirings: build.query<AlertFiringDto[], { workspaceId: string; id: string }>({
      query: ({ workspaceId, id }) => ({ url: AlertRulePaths.firings(workspaceId, id) }),
      transformResponse: (response: { firings: AlertFiringDto[] }) => response.firings,
      providesTags: (_result, _error, { id }) => [{ type: 'AlertFirings', id }],
    }),
    previewAlertRule: build.mutation<AlertPreviewResult, { workspaceId: string; body: CreateAlertRuleBody }>({
      query: ({ workspaceId, body }) => ({ url: AlertRulePaths.preview(workspaceId), method: 'POST', body }),
    }),
  }),
});

export const {
  useGetAlertRulesQuery,
  useCreateAlertRuleMutation,
  useUpdateAlertRuleMutation,
  useDeleteAlertRuleMutation,
  useGetAlertFiringsQuery,
  usePreviewAlertRuleMutation,
} = alertRulesApi;
