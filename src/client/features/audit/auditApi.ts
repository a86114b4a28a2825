import { AuditPaths, type AuditListResult } from '../../../contract/audit';
import { apiSlice } from '../../api/apiSlice';

const api = apiSlice.enhanceEndpoints({ addTagTypes: ['Audit'] });

/** One page of a workspace's security events: newest first, `before` the last one of the page above. */
export interface AuditPageArgs {
  workspaceId: string;
  before?: string;
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditEvents: build.query<AuditListResult, AuditPageArgs>({
      query: ({ workspaceId, before }) => ({
        url: AuditPaths.audit(workspaceId),
        params: { limit: AUDIT_PAGE_SIZE, ...(before ? { before } : {}) },
      }),
      providesTags: (_result, _error, { workspaceId }) => [{ type: 'Audit', id: workspaceId }],
    }),
  }),
});

export const AUDIT_PAGE_SIZE = 50;
export const { useGetAuditEventsQuery } = auditApi;
