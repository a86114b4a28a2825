import type { WorkspaceType } from '../../../contract/workspaces';

/** What the create call accepts (SPEC §5): a plain name, or the fields of the form. */
export type CreateWorkspaceInput = string | { name: string; description?: string; workspaceType?: WorkspaceType };

/** The body of POST /api/v1/workspaces, every field present. */
export interface CreateWorkspaceRequest {
  name: string;
  description: string;
  workspaceType: WorkspaceType;
}

export function toCreateWorkspaceRequest(input: CreateWorkspaceInput): CreateWorkspaceRequest {
  if (typeof input === 'string') {
    return { name: input.trim(), description: '', workspaceType: 'personal' };
  }
  return {
    name: input.name.trim(),
    description: (input.description ?? '').trim(),
    workspaceType: input.workspaceType ?? 'personal',
  };
}
