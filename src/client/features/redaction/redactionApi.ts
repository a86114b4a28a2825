import type {
  RedactionSettingsBody,
  RedactionSettingsDto,
  RedactionTestBody,
  RedactionTestResult,
} from '../../../contract/redaction';
import { Paths } from '../../../contract/routes';
import { apiSlice } from '../../api/apiSlice';

// A workspace's redaction settings (docs/security.md "Redaction before storage"): read by every
// member, saved by owners and admins, and "test a sample" with saved or unsaved settings.
export const redactionApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getRedactionSettings: build.query<RedactionSettingsDto, string>({
      query: (workspaceId) => Paths.redactionSettings(workspaceId),
      providesTags: (_result, _error, workspaceId) => [{ type: 'RedactionSettings', id: workspaceId }],
    }),
    updateRedactionSettings: build.mutation<RedactionSettingsDto, { workspaceId: string; body: RedactionSettingsBody }>(
      {
        query: ({ workspaceId, body }) => ({ url: Paths.redactionSettings(workspaceId), method: 'PUT', body }),
        extraOptions: { maxAttempts: 1 },
        invalidatesTags: (_result, error, { workspaceId }) =>
          error ? [] : [{ type: 'RedactionSettings', id: workspaceId }],
      },
    ),
    testRedactionSample: build.mutation<RedactionTestResult, { workspaceId: string; body: RedactionTestBody }>({
      query: ({ workspaceId, body }) => ({ url: Paths.redactionTest(workspaceId), method: 'POST', body }),
      extraOptions: { maxAttempts: 1 },
    }),
  }),
});

export const { useGetRedactionSettingsQuery, useUpdateRedactionSettingsMutation, useTestRedactionSampleMutation } =
  redactionApi;
