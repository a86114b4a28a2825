import type { Queryable } from '../../db/database';
import type { Definition } from './store';

// What the risk check needs beside a definition: the tools of the workspace (its other servers'
// tool names are what a shadowing description names; each unpinned tool's current definition is
// the baseline the proxy compares an upstream's tools/list against).
export interface WorkspaceTool {
  serverId: string;
  workspaceId: string;
  name: string;
  definition: Definition;
  pinned: boolean;
}

/** Every tool of one server's workspace, or of every workspace when no server is named. */
export async function listWorkspaceTools(db: Queryable, serverId?: string): Promise<WorkspaceTool[]> {
  const rows = await db.query<{
    server_id: string;
    workspace_id: string;
    name: string;
    definition: Definition;
    pinned: boolean;
  }>(
    `select s.server_id, s.workspace_id, s.name, s.definition, s.pinned_version is not null as pinned
       from schemas s
      where s.kind = 'tool' ${serverId ? 'and s.workspace_id = (select workspace_id from servers where id = $1)' : ''}`,
    serverId ? [serverId] : [],
  );
  return rows.map((r) => ({
    serverId: r.server_id,
    workspaceId: r.workspace_id,
    name: r.name,
    definition: r.definition,
    pinned: r.pinned,
  }));
}

/** Tool names of the other servers of this server's workspace. */
export async function otherServersToolNames(db: Queryable, serverId: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select distinct s.name from schemas s join servers me on me.workspace_id = s.workspace_id
      where me.id = $1 and s.server_id <> $1 and s.kind = 'tool'`,
    [serverId],
  );
  return rows.map((r) => r.name);
}
