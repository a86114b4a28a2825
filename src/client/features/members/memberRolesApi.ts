import type { MemberDto } from '../../../contract/members';
import { Paths } from '../../../contract/routes';
import type { MemberRole, WorkspaceDto } from '../../../contract/workspaces';
import { apiSlice, type NoArg, type NoContent } from '../../api/apiSlice';

/** A pending invitation as the workspace's owners and admins see it (the invitations API). */
export interface PendingInvitation {
  id: string;
  email: string;
  role: 'admin' | 'member';
  invitedByName: string;
  createdAt: string;
  expiresAt: string;
}

/** A pending invitation as its invitee sees it. */
export interface MyInvitation {
  id: string;
  workspaceId: string;
  workspaceName: string;
  role: 'admin' | 'member';
  invitedByName: string;
  createdAt: string;
  expiresAt: string;
}

// Role changes, leaving, and the invitation lists (docs/settings.md "Members").
export const memberRolesApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    changeMemberRole: build.mutation<MemberDto[], { workspaceId: string; userId: string; role: MemberRole }>({
      query: ({ workspaceId, userId, role }) => ({
        url: Paths.workspaceMember(workspaceId, userId),
        method: 'PUT',
        body: { role },
      }),
      transformResponse: (response: { members: MemberDto[] }) => response.members,
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [{ type: 'Members', id: workspaceId }, 'Workspaces'],
    }),
    leaveWorkspace: build.mutation<NoContent, string>({
      query: (workspaceId) => ({ url: Paths.leaveWorkspace(workspaceId), method: 'DELETE' }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error) => (error ? [] : ['Workspaces']),
    }),
    getPendingInvitations: build.query<PendingInvitation[], string>({
      query: (workspaceId) => Paths.workspaceInvitations(workspaceId),
      transformResponse: (response: { invitations: PendingInvitation[] }) => response.invitations,
      extraOptions: { maxAttempts: 1 },
      providesTags: (_result, _error, workspaceId) => [{ type: 'Members', id: `invitations:${workspaceId}` }],
    }),
    cancelInvitation: build.mutation<NoContent, { workspaceId: string; invitationId: string }>({
      query: ({ workspaceId, invitationId }) => ({
        url: Paths.workspaceInvitation(workspaceId, invitationId),
        method: 'DELETE',
      }),
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [{ type: 'Members', id: `invitations:${workspaceId}` }],
    }),
    resendInvitation: build.mutation<unknown, { workspaceId: string; email: string; role: 'admin' | 'member' }>({
      // Inviting the same address again renews the pending invitation and mails it again.
      query: ({ workspaceId, email, role }) => ({
        url: `${Paths.workspace(workspaceId)}/members`,
        method: 'POST',
        body: { email, role },
      }),
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [{ type: 'Members', id: `invitations:${workspaceId}` }],
    }),
    getMyInvitations: build.query<MyInvitation[], NoArg>({
      query: () => Paths.myInvitations,
      transformResponse: (response: { invitations: MyInvitation[] }) => response.invitations,
      extraOptions: { maxAttempts: 1 },
      providesTags: [{ type: 'Members', id: 'mine' }],
    }),
    acceptInvitation: build.mutation<{ workspace: WorkspaceDto }, string>({
      query: (id) => ({ url: Paths.acceptInvitation(id), method: 'POST' }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error) => (error ? [] : ['Workspaces', { type: 'Members', id: 'mine' }]),
    }),
    declineInvitation: build.mutation<NoContent, string>({
      query: (id) => ({ url: Paths.declineInvitation(id), method: 'POST' }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error) => (error ? [] : [{ type: 'Members', id: 'mine' }]),
    }),
  }),
});

export const {
  useChangeMemberRoleMutation,
  useLeaveWorkspaceMutation,
  useGetPendingInvitationsQuery,
  useCancelInvitationMutation,
  useResendInvitationMutation,
  useGetMyInvitationsQuery,
  useAcceptInvitationMutation,
  useDeclineInvitationMutation,
} = memberRolesApi;
