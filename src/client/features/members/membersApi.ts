import type { InviteMemberBody, MemberDto } from '../../../contract/members';
import type { InvitationSent } from '../../../contract/invitations';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoContent } from '../../api/apiSlice';

// The members endpoints of a workspace (docs/api.md "Members"). The list is tagged per workspace,
// so adding or removing someone refetches exactly that workspace's list.
const membersPath = (workspaceId: string) => `${Paths.workspace(workspaceId)}/members`;
const memberPath = (workspaceId: string, userId: string) => `${membersPath(workspaceId)}/${userId}`;

export const membersApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getMembers: build.query<MemberDto[], string>({
      query: (workspaceId) => ({ url: membersPath(workspaceId) }),
      transformResponse: (response: { members: MemberDto[] }) => response.members,
      providesTags: (_result, _error, workspaceId) => [{ type: 'Members', id: workspaceId }],
    }),
    // An invitation (202): the person joins when they accept, so the member list is unchanged but
    // the Pending list has it at once (it only showed after a reload, issue 38).
    addMember: build.mutation<InvitationSent, { workspaceId: string; body: InviteMemberBody }>({
      query: ({ workspaceId, body }) => ({ url: membersPath(workspaceId), method: 'POST', body }),
      invalidatesTags: (_result, error, { workspaceId }) =>
        error
          ? []
          : [
              { type: 'Members', id: workspaceId },
              { type: 'Members', id: `invitations:${workspaceId}` },
            ],
    }),
    removeMember: build.mutation<NoContent, { workspaceId: string; userId: string }>({
      query: ({ workspaceId, userId }) => ({ url: memberPath(workspaceId, userId), method: 'DELETE' }),
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [{ type: 'Members', id: workspaceId }]),
    }),
  }),
});

export const { useGetMembersQuery, useAddMemberMutation, useRemoveMemberMutation } = membersApi;
