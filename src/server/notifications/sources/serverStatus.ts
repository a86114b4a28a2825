import type { ServerStatus } from '../../../contract/servers';
import type { RaiseInput } from '../NotificationService';

export interface ServerStatusChange {
  workspaceId: string;
  serverId: string;
  serverName: string;
  status: ServerStatus;
  /** Why the health check failed (offline only), shown to the user. */
  reason?: string | null;
}

/**
 * tool_server_status, raised by the health monitor when a server's status flips:
 * `app.notifications.raise(serverStatusNotification(change))`. The metadata carries serverId,
 * status and serverName (SPEC §3 live message) so the client can update the server at once.
 * A flapping server bumps one notification per status within the grouping window.
 */
export function serverStatusNotification(change: ServerStatusChange): RaiseInput {
  const offline = change.status === 'offline';
  return {
    workspaceId: change.workspaceId,
    type: 'tool_server_status',
    severity: offline ? 'error' : 'success',
    title: offline ? 'Server Offline' : 'Server Back Online',
    message: offline
      ? `${change.serverName} is not responding to health checks${change.reason ? ` (${change.reason})` : ''}`
      : `${change.serverName} is responding to health checks again`,
    actionUrl: `/servers?serverId=${encodeURIComponent(change.serverId)}`,
    metadata: { serverId: change.serverId, status: change.status, serverName: change.serverName },
    groupKey: `server:${change.serverId}:${change.status}`,
  };
}
