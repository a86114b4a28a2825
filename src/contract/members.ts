import { z } from 'zod';
import { MEMBER_ROLES } from './workspaces';

// Workspace members (SPEC §6 names the roles owner, admin, member). Owners and admins invite people
// (./invitations); someone becomes a member by accepting.
export const MemberDto = z.object({
  userId: z.string(),
  email: z.string(),
  fullName: z.string(),
  role: z.enum(MEMBER_ROLES),
  joinedAt: z.string(),
});
export type MemberDto = z.infer<typeof MemberDto>;

export const MemberListResult = z.object({ members: z.array(MemberDto) });

// Adding people is an invitation the invitee accepts: the body, answer and routes are in ./invitations.
export { InviteMemberBody } from './invitations';

export const MemberParams = z.object({ workspaceId: z.string(), userId: z.string().check(z.uuid('Unknown member')) });

/** PUT /workspaces/{id}/members/{userId}: a new role; at least one owner always remains. */
export const UpdateMemberRoleBody = z.object({ role: z.enum(MEMBER_ROLES) }).strict();
export type UpdateMemberRoleBody = z.infer<typeof UpdateMemberRoleBody>;
