import type { SubscriptionDto, WorkspaceLimitsResult } from '../../../contract/billing';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoArg } from '../../api/apiSlice';

// The account's plan and this month's usage (docs/api.md "Billing").
export const billingApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getWorkspaceLimits: build.query<WorkspaceLimitsResult, NoArg>({
      query: () => Paths.workspaceLimits,
      providesTags: ['Limits'],
    }),
    getSubscription: build.query<SubscriptionDto, NoArg>({
      query: () => Paths.subscription,
      providesTags: ['Subscription'],
    }),
  }),
});

export const { useGetWorkspaceLimitsQuery, useGetSubscriptionQuery } = billingApi;
