import type { WorkspaceLimitsResult } from '../../../contract/billing';
import { Paths } from '../../../contract/routes';
import { apiSlice } from '../../api/apiSlice';

// GET /billing/workspace-limits: the account's workspaces and this month's agent calls against its
// plan — the same count the proxy's quota enforces (docs/access.md).
export const billingApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getWorkspaceLimits: build.query<WorkspaceLimitsResult, void>({
      query: () => Paths.workspaceLimits,
      providesTags: ['Limits'],
    }),
  }),
});

export const { useGetWorkspaceLimitsQuery } = billingApi;
