import type { NotificationDto } from './notifications';

// Messages of the live stream (GET /api/v1/workspaces/{id}/platform/sse?token=…). Each SSE
// `data:` line is one JSON LiveMessage. SPEC §3 fixes the 'notification' shape (data.type,
// data.metadata.serverId/status/serverName); the other types are ours (docs/api.md).
export interface LiveMessage<T extends string = string, D = unknown> {
  type: T;
  data: D;
  /** ISO time the server published it. */
  at?: string;
  /** Set on per-user messages (notifications): only that user's streams deliver it. */
  userId?: string;
}

export const LiveMessageTypes = {
  notification: 'notification',
  /** A tool call finished (data: ToolCallDto of contract/sessions). */
  toolCall: 'tool_call',
  /**
   * A tool call is in flight (data: ToolCallDto with status 'pending'), sent once when its request
   * is stored. Its own type: everything that counts finished calls listens to `tool_call` only;
   * the activity stream shows it pending until the `tool_call` of its answer replaces it.
   */
  toolCallStarted: 'tool_call_started',
  /** data: SessionDto */
  sessionStarted: 'session_started',
  /** data: SessionDto */
  sessionEnded: 'session_ended',
  /** A server's status or schema count changed (data: ServerDto of contract/servers). */
  serverUpdated: 'server_updated',
  /**
   * A health check found a server as it was (data: ServerChecked): only its check time moved, so
   * "checked … ago" labels follow the probes instead of freezing at the last change.
   */
  serverChecked: 'server_checked',
  /** A deployment's status changed (data: DeploymentDto of contract/deployments). */
  deploymentUpdated: 'deployment_updated',
  /** Lines a deployed program wrote (data: DeploymentLogMessage of contract/deployments). */
  deploymentLog: 'deployment_log',
  /** Sent on connect and every 25 s so proxies keep the stream open (data: {}). */
  heartbeat: 'heartbeat',
  /**
   * Server-internal: the addressed user lost access (removed, signed out, password changed); their
   * streams close on every instance. Never sent to a client (docs/security.md).
   */
  accessRevoked: 'access_revoked',
} as const;

export interface ServerChecked {
  serverId: string;
  lastChecked: string;
}

export type NotificationLiveMessage = LiveMessage<'notification', NotificationDto>;
