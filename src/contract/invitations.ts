import { z } from 'zod';
import { API } from './routes';
import { WorkspaceDto } from './workspaces';

// Invitations (issue 16 item 4): nobody joins a workspace without saying yes. Owners and admins
// invite an email with a role; the answer is the same whether that email has an account or not.
// The invitee — signed in with that email, now or after signing up — lists, accepts or declines.
export const INVITATION_ROLES = ['admin', 'member'] as const;
export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked'] as const;
/** An invitation not answered within this many days lapses (it no longer lists or accepts). */
export const INVITATION_TTL_DAYS = 14;

export const InvitationPaths = {
  /** POST {email, role} → 202 InvitationSent (owners, admins). */
  invite: (ws: string) => `${API}/workspaces/${ws}/members`,
  /** GET → WorkspaceInvitationList: the workspace's pending invitations (owners, admins). */
  workspaceInvitations: (ws: string) => `${API}/workspaces/${ws}/invitations`,
  /** DELETE → 204: withdraw a pending invitation (owners, admins). */
  workspaceInvitation: (ws: string, id: string) => `${API}/workspaces/${ws}/invitations/${id}`,
  /** DELETE → 204: leave the workspace (any member but a sole owner). */
  leave: (ws: string) => `${API}/workspaces/${ws}/members/me`,
  /** GET → MyInvitationList: the signed-in user's pending invitations. */
  mine: `${API}/users/me/invitations`,
  /** POST (no body) → 200 AcceptInvitationResult. */
  accept: (id: string) => `${API}/invitations/${id}/accept`,
  /** POST (no body) → 204. */
  decline: (id: string) => `${API}/invitations/${id}/decline`,
} as const;

export const InviteMemberBody = z.object({
  email: z.string().trim().toLowerCase().check(z.email('Enter a valid email address')).max(254),
  role: z.enum(INVITATION_ROLES).optional().default('member'),
});
export type InviteMemberBody = z.input<typeof InviteMemberBody>;

/** The 202 answer of an invitation: identical for emails with and without an account. */
export const InvitationSent = z.object({
  message: z.string(),
  invitation: z.object({
    id: z.string(),
    email: z.string(),
    role: z.enum(INVITATION_ROLES),
    expiresAt: z.string(),
  }),
});
export type InvitationSent = z.infer<typeof InvitationSent>;

/** A pending invitation as the workspace's owners and admins see it. */
export const WorkspaceInvitationDto = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(INVITATION_ROLES),
  invitedByName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type WorkspaceInvitationDto = z.infer<typeof WorkspaceInvitationDto>;
export const WorkspaceInvitationList = z.object({ invitations: z.array(WorkspaceInvitationDto) });

/** A pending invitation as its invitee sees it. */
export const MyInvitationDto = z.object({
  id: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
  role: z.enum(INVITATION_ROLES),
  invitedByName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type MyInvitationDto = z.infer<typeof MyInvitationDto>;
export const MyInvitationList = z.object({ invitations: z.array(MyInvitationDto) });

export const InvitationParams = z.object({ invitationId: z.string().check(z.uuid('Invitation not found')) });
export const WorkspaceInvitationParams = z.object({
  workspaceId: z.string().check(z.uuid('Unknown workspace')),
  invitationId: z.string().check(z.uuid('Invitation not found')),
});

/** Accepting answers with the workspace joined, so a client can switch to it. */
export const AcceptInvitationResult = z.object({ workspace: WorkspaceDto });
export type AcceptInvitationResult = z.infer<typeof AcceptInvitationResult>;

/** The answer texts, written once for server and client. */
/** The 403 code of accepting an invitation before the account's address is verified. */
export const EMAIL_UNVERIFIED_CODE = 'email_unverified' as const;

export const InvitationText = {
  sent: (email: string) => `Invitation sent to ${email}`,
  notFound: 'Invitation not found',
  alreadyMember: 'That person is already a member of this workspace',
  soleOwner: 'You are the only owner of this workspace; delete it or make someone else owner first',
} as const;
