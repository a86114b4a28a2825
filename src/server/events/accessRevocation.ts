import type { FastifyInstance } from 'fastify';
import { LiveMessageTypes } from '../../contract/live';

// When someone loses access — removed from a workspace, a sign-in revoked, the password changed —
// their open live streams must close at once, not at the next membership check. The revocation
// is a bus message addressed to that user, so the bus relay carries it to every instance; the
// live stream ends the matching streams when it sees it and never forwards it.
export interface AccessRevoked {
  /** Only the streams of this sign-in (the access token's `sid`); absent: all the user's streams. */
  sid?: string;
  reason: 'removed' | 'left' | 'signed_out' | 'password_changed' | 'token_reuse';
}

/** Closes the user's streams of one workspace (they were removed from it or left it). */
export function revokeWorkspaceStreams(
  app: FastifyInstance,
  workspaceId: string,
  userId: string,
  reason: AccessRevoked['reason'],
): void {
  app.bus.publish(workspaceId, {
    type: LiveMessageTypes.accessRevoked,
    userId,
    data: { reason } satisfies AccessRevoked,
  });
}

/** Closes the user's streams in every workspace they belong to (all sign-ins, or one `sid`). */
export async function revokeUserStreams(app: FastifyInstance, userId: string, revoked: AccessRevoked): Promise<void> {
  const rows = await app.db.query<{ workspace_id: string }>(
    'select workspace_id from workspace_members where user_id = $1',
    [userId],
  );
  for (const { workspace_id } of rows)
    app.bus.publish(workspace_id, { type: LiveMessageTypes.accessRevoked, userId, data: revoked });
}
