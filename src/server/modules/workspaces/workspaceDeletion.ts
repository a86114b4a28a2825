import type { FastifyInstance } from 'fastify';
import { purgeWorkspaceRows } from '../../data/retention/workspacePurge';
import { notFound } from '../../http/errors';
import { deleteWorkspace } from './store';

// Deleting a workspace deletes its data (docs/operations.md "Deleting data"): its rows in one
// transaction, then what the recorder had in flight for it, then its records in the journal. The
// workspace route and the account's deletion both come here.

/**
 * Deletes the workspace with everything of it. `refuse` sees the locked row inside the
 * transaction and throws to keep it (a personal workspace, for the workspace route).
 */
export async function deleteWorkspaceData(
  app: FastifyInstance,
  workspaceId: string,
  refuse: (workspace: { workspace_type: string }) => void = () => undefined,
): Promise<void> {
  const servers = await app.db.transaction(async (tx) => {
    const rows = await tx.query<{ workspace_type: string }>(
      'select workspace_type from workspaces where id = $1 for update',
      [workspaceId],
    );
    if (!rows[0]) throw notFound('Workspace not found');
    refuse(rows[0]);
    return deleteWorkspace(tx, workspaceId);
  });
  // No new recording for its servers; what the recorder still queued for them is dropped.
  for (const server of servers) {
    app.upstreams.forget(server.proxy_key);
    app.recorder.forgetServer(server.id);
  }
  // A batch already on its way may have written rollups after the transaction: wait for it, clear them.
  await app.recorder.flush();
  await purgeWorkspaceRows(app.db, workspaceId);
  // Its records in the journal leave the disk once the rows around them are committed.
  app.recorder.sealJournal();
}
