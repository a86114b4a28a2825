import type { App } from '../../../src/server/app';
import type { MemberRole } from '../../../src/contract/workspaces';
import type { TestAccount } from './accounts';

/**
 * Makes `who` a member of `workspaceId` with `role` straight in the database: the tests that use it
 * are about what a role may do, not how people join (test/server/members covers invitations).
 */
export async function addToWorkspace(app: App, workspaceId: string, who: TestAccount, role: MemberRole): Promise<void> {
  await app.db.query(
    `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)
     on conflict (workspace_id, user_id) do update set role = excluded.role`,
    [workspaceId, who.user.id, role],
  );
}
