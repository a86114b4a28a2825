import { z } from 'zod';
import { MEMBER_ROLES } from './workspaces';

// Workspace members (SPEC §6 names the roles owner, admin, member). Owners and admins add people
// who already have a Toolscope account; the invitee is told by a workspace_invite notification.
export const MemberDto = z.object({
  userId: z.string(),
  email: z.string(),
  fullName: z.string(),
  role: z.enum(MEMBER_ROLES),
  joinedAt: z.string(),
});
export type MemberDto = z.infer<typeof MemberDto>;

export const MemberListResult = z.object({ members: z.array(MemberDto) });

export const InviteMemberBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  role: z.enum(['admin', 'member']).optional().default('member'),
});
export type InviteMemberBody = z.input<typeof InviteMemberBody>;

export const MemberParams = z.object({ workspaceId: z.string(), userId: z.string().uuid('Unknown member') });
