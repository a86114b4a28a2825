import type { PublicConfig } from '../../../contract/config';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoArg } from '../../api/apiSlice';

// GET /api/v1/config: the flags (with the operator's TOOLSCOPE_FLAGS overrides) and the plans.
export const configApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getConfig: build.query<PublicConfig, NoArg>({
      // Public: the SPA needs the flags before anyone signs in.
      query: () => ({ url: Paths.config, authenticate: false }),
      providesTags: ['Config'],
    }),
  }),
});

export const { useGetConfigQuery } = configApi;
