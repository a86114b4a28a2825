import { LiveMessageTypes, type LiveMessage, type ServerChecked } from '../../../contract/live';
import type { NotificationDto } from '../../../contract/notifications';
import type { ServerDto, ServerStatus } from '../../../contract/servers';
import { apiSlice } from '../../api/apiSlice';
import type { AppDispatch, RootState } from '../../app/rootState';
import type { ToastInput } from '../../components/toast/toastTypes';
import { liveActivityReceived } from '../activity';
import { notificationReceived } from '../notifications/notificationsSlice';
import { serversApi, upsertCachedServer } from '../servers/serversApi';
import { deploymentLogged, deploymentUpdated } from '../deployments';
import type { DeploymentDto, DeploymentLogMessage } from '../../../contract/deployments';

// What a live message changes in the app (SPEC §4 Servers / Live stream): server status in the
// cached list, the notifications buffer, the 'Server Offline' toast, and fresh dashboard data.
// Kept apart from the component so it can be tested against a real store without a stream.

export interface LiveEffectsDeps {
  dispatch: AppDispatch;
  getState: () => RootState;
  toast: (input: ToastInput) => unknown;
  /** Groups a burst of traffic into one refetch; defaults to setTimeout. */
  setTimer?: (run: () => void, ms: number) => unknown;
}

/** Tool calls can arrive hundreds a second: the dashboard refetches at most once per second. */
export const TRAFFIC_REFRESH_MS = 1_000;

export function serverOfflineText(serverName: string): ToastInput {
  return {
    title: 'Server Offline',
    description: `${serverName} is not responding to health checks`,
    variant: 'destructive',
  };
}

/** What tool traffic moves: analytics, usage, sessions, calls, the activity stream, keys' last use. */
function trafficTags(id: string): Parameters<typeof apiSlice.util.invalidateTags>[0] {
  return [
    'Analytics',
    // The usage bar's count of agent calls moves with the call counters, not a minute later.
    'Limits',
    { type: 'Sessions', id },
    { type: 'ToolCalls', id },
    { type: 'ToolCalls', id: `series-${id}` },
    { type: 'Activity', id },
    // A platform key's "Last used" moves with its calls (it lagged until a refetch, issue 38).
    { type: 'PlatformKeys', id },
  ];
}

/**
 * What a reopened stream missed while it was down: every list a live message would have moved is
 * fetched again (a server that went offline in the gap showed "Online" until a reload). Queries
 * not on screen are only marked stale.
 */
export function resyncAfterGap(dispatch: AppDispatch, workspaceId: string): void {
  dispatch(
    apiSlice.util.invalidateTags([
      { type: 'Servers', id: workspaceId },
      'Notifications',
      'UnreadCount',
      { type: 'Deployments', id: workspaceId },
      ...trafficTags(workspaceId),
    ]),
  );
}

/** Creates the `deliver` implementation for one mounted stream (it remembers announced statuses). */
export function createLiveMessageEffects({ dispatch, getState, toast, setTimer = setTimeout }: LiveEffectsDeps) {
  // The last status announced per server: a server_updated and the notification about the same
  // change both arrive, and the toast must show once per transition.
  const announced = new Map<string, ServerStatus>();
  // Servers of deployments stopped on purpose: their going offline is what the user asked for, not
  // news to toast in red (issue 38). Known from the deployment's own update, which comes first.
  const stoppedOnPurpose = new Set<string>();
  let trafficRefreshPending = false;
  let trafficWorkspace: string | null = null;

  const cachedServer = (workspaceId: string, serverId: string): ServerDto | undefined =>
    serversApi.endpoints.getServers
      .select(workspaceId)(getState())
      .data?.find((s) => s.id === serverId);

  /** What the cache knew: a server never checked yet has no status worth comparing with. */
  const knownStatus = (server: ServerDto | undefined): ServerStatus | undefined =>
    server && server.lastHealthStatus !== null ? server.status : undefined;

  /**
   * A server_updated: announced when the status changed from what was announced, or else from what
   * the page showed. A server the page already showed offline (a refetch got there first, or an
   * edit of an offline server) is not announced here, and not marked: its status notification,
   * raised once per real transition, still announces it (noteTransition).
   */
  const noteStatus = (serverId: string, status: ServerStatus, previous: ServerStatus | undefined, name: string) => {
    const before = announced.get(serverId) ?? previous;
    if (status === 'offline' && before === 'offline') return;
    announced.set(serverId, status);
    if (status === 'offline' && !stoppedOnPurpose.has(serverId)) toast(serverOfflineText(name));
  };

  /** A status notification: the monitor raises one per transition, so only what was announced counts. */
  const noteTransition = (serverId: string, status: ServerStatus, name: string) => {
    const before = announced.get(serverId);
    announced.set(serverId, status);
    if (status === 'offline' && before !== 'offline' && !stoppedOnPurpose.has(serverId)) toast(serverOfflineText(name));
  };

  /**
   * A list fetch in flight may have been read before this change: its answer would put the old
   * status back over the live one (the servers e2e saw a toast over an 'Online' card). The list is
   * fetched again after it — RTK Query holds an invalidation until the pending fetch settles.
   */
  const refetchListInFlight = (workspaceId: string) => {
    if (serversApi.endpoints.getServers.select(workspaceId)(getState()).isLoading) {
      dispatch(apiSlice.util.invalidateTags([{ type: 'Servers', id: workspaceId }]));
    }
  };

  const applyServer = (server: ServerDto) => {
    const previous = knownStatus(cachedServer(server.workspaceId, server.id));
    dispatch(upsertCachedServer(server));
    refetchListInFlight(server.workspaceId);
    dispatch(apiSlice.util.invalidateTags(['Analytics']));
    // A server that was never checked yet is listed as offline: that is not news to announce.
    if (server.lastHealthStatus !== null) noteStatus(server.id, server.status, previous, server.name);
  };

  const applyStatusNotification = (workspaceId: string, notification: NotificationDto) => {
    const { serverId, status, serverName } = notification.metadata as {
      serverId?: unknown;
      status?: unknown;
      serverName?: unknown;
    };
    if (typeof serverId !== 'string' || (status !== 'online' && status !== 'offline')) return;
    const cached = cachedServer(workspaceId, serverId);
    if (cached && cached.status !== status) {
      dispatch(
        serversApi.util.updateQueryData('getServers', workspaceId, (draft) => {
          const server = draft.find((s) => s.id === serverId);
          if (server) {
            server.status = status;
            server.lastHealthStatus = status === 'online';
            server.lastChecked = notification.updatedAt;
          }
        }),
      );
      refetchListInFlight(workspaceId);
      dispatch(apiSlice.util.invalidateTags(['Analytics']));
    }
    const name = typeof serverName === 'string' ? serverName : (cached?.name ?? 'A tool server');
    noteTransition(serverId, status, name);
  };

  /** A check that changed nothing else: the cached server's check time moves on (no refetch). */
  const applyCheck = (workspaceId: string, { serverId, lastChecked }: ServerChecked) => {
    const cached = cachedServer(workspaceId, serverId);
    if (!cached || (cached.lastChecked !== null && Date.parse(cached.lastChecked) >= Date.parse(lastChecked))) return;
    dispatch(
      serversApi.util.updateQueryData('getServers', workspaceId, (draft) => {
        const server = draft.find((s) => s.id === serverId);
        if (server) server.lastChecked = lastChecked;
      }),
    );
  };

  const refreshTraffic = (workspaceId: string) => {
    trafficWorkspace = workspaceId;
    if (trafficRefreshPending) return;
    trafficRefreshPending = true;
    setTimer(() => {
      trafficRefreshPending = false;
      const id = trafficWorkspace;
      if (id === null) return;
      dispatch(apiSlice.util.invalidateTags(trafficTags(id)));
    }, TRAFFIC_REFRESH_MS);
  };

  return function deliver(message: LiveMessage, workspaceId: string): void {
    switch (message.type) {
      case LiveMessageTypes.serverUpdated:
        applyServer(message.data as ServerDto);
        return;
      case LiveMessageTypes.serverChecked:
        applyCheck(workspaceId, message.data as ServerChecked);
        return;
      case LiveMessageTypes.notification: {
        const notification = message.data as NotificationDto;
        dispatch(notificationReceived(notification));
        if (notification.type === 'tool_server_status') applyStatusNotification(workspaceId, notification);
        return;
      }
      case LiveMessageTypes.toolCall:
      case LiveMessageTypes.toolCallStarted:
      case LiveMessageTypes.sessionStarted:
      case LiveMessageTypes.sessionEnded:
        dispatch(liveActivityReceived(message));
        refreshTraffic(workspaceId);
        return;
      case LiveMessageTypes.deploymentUpdated: {
        const deployment = message.data as DeploymentDto;
        if (deployment.serverId) {
          if (deployment.status === 'stopped') stoppedOnPurpose.add(deployment.serverId);
          else stoppedOnPurpose.delete(deployment.serverId);
        }
        deploymentUpdated(dispatch, workspaceId, deployment);
        return;
      }
      case LiveMessageTypes.deploymentLog:
        deploymentLogged(dispatch, message.data as DeploymentLogMessage);
        return;
      default:
        // heartbeat and types this client does not know: nothing to do.
        return;
    }
  };
}
