import { z } from 'zod';

export const WORKSPACE_TYPES = ['personal', 'team'] as const;
export type WorkspaceType = (typeof WORKSPACE_TYPES)[number];
export const MEMBER_ROLES = ['owner', 'admin', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const WorkspaceDto = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  workspaceType: z.enum(WORKSPACE_TYPES),
  role: z.enum(MEMBER_ROLES),
  createdAt: z.string(),
  /** Agents must present a platform key at the proxy (docs/access.md). The server always sends it. */
  requirePlatformKey: z.boolean().optional(),
});
export type WorkspaceDto = z.infer<typeof WorkspaceDto>;

export const CreateWorkspaceBody = z.object({
  name: z.string().trim().min(1, 'Workspace name is required').max(100),
  description: z.string().trim().max(500).optional().default(''),
  workspaceType: z.enum(WORKSPACE_TYPES).optional().default('personal'),
});
export type CreateWorkspaceBody = z.input<typeof CreateWorkspaceBody>;

/** PUT /workspaces/{id} by owners and admins: only the fields given change. */

export const WorkspaceParams = z.object({ workspaceId: z.string().check(z.uuid('Unknown workspace')) });

export const WorkspaceListResult = z.object({ workspaces: z.array(WorkspaceDto) });
export const CreateWorkspaceResult = WorkspaceDto;

/**
 * PUT /workspaces/{id}: owners and admins rename or describe the workspace, or require a platform
 * key at the proxy (docs/access.md); its type stays.
 */
export const UpdateWorkspaceBody = z
  .object({
    name: z.string().trim().min(1, 'Workspace name is required').max(100).optional(),
    description: z.string().trim().max(500).optional(),
    requirePlatformKey: z.boolean({ error: 'Expected true or false' }).optional(),
  })
  .strict();
export type UpdateWorkspaceBody = z.infer<typeof UpdateWorkspaceBody>;

/** The refusals of workspace settings (403 with a message a member can act on). */
export const WorkspaceText = {
  onlyManagersEdit: 'Only workspace owners and admins can change the workspace',
  onlyOwnerDeletes: 'Only the workspace owner can delete it',
  personalCannotBeDeleted: 'Your personal workspace cannot be deleted',
  onlyManagersChangeRoles: 'Only workspace owners and admins can change roles',
  onlyOwnersGrantOwner: 'Only an owner can make someone an owner or change an owner’s role',
  lastOwner: 'A workspace needs at least one owner: make someone else owner first',
  lastOwnerCannotLeave: 'You are the only owner: make someone else owner before leaving',
  personalCannotBeLeft: 'You cannot leave your personal workspace',
} as const;
