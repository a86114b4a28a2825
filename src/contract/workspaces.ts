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
});
export type WorkspaceDto = z.infer<typeof WorkspaceDto>;

export const CreateWorkspaceBody = z.object({
  name: z.string().trim().min(1, 'Workspace name is required').max(100),
  description: z.string().trim().max(500).optional().default(''),
  workspaceType: z.enum(WORKSPACE_TYPES).optional().default('personal'),
});
export type CreateWorkspaceBody = z.input<typeof CreateWorkspaceBody>;

export const WorkspaceParams = z.object({ workspaceId: z.string().uuid('Unknown workspace') });

export const WorkspaceListResult = z.object({ workspaces: z.array(WorkspaceDto) });
export const CreateWorkspaceResult = WorkspaceDto;
