import type { Database } from '../db/database';

// One NOTIFY channel tells every instance (this one included) that agent-access data changed:
// a platform key ('key:<id>'), a workspace's key requirement ('require:<workspaceId>') or its
// workspace keys ('secrets:<workspaceId>'). Instances reload just that from the database.
// PGlite delivers to its own process, so the same code path serves one instance and many.
export const ACCESS_CHANNEL = 'toolscope_agent_access';

export type AccessChange = { kind: 'key' | 'require' | 'secrets'; id: string };

export function announceAccessChange(db: Database, change: AccessChange): Promise<void> {
  return db.notify(ACCESS_CHANNEL, `${change.kind}:${change.id}`);
}

export function parseAccessChange(payload: string): AccessChange | undefined {
  const match = /^(key|require|secrets):([0-9a-f-]{36})$/i.exec(payload);
  return match ? { kind: match[1] as AccessChange['kind'], id: match[2] } : undefined;
}
