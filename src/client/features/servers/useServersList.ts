import { useEffect, useRef } from 'react';
import type { ServerDto } from '../../../contract/servers';
import { ErrorText } from '../../../contract/errors';
import { errorMessage } from '../../api/apiError';
import { useAppSelector } from '../../app/hooks';
import { useToast } from '../../components/toast';
import { selectCurrentUser } from '../auth/authSlice';
import { useLiveStreamStatus } from '../live/useLiveStreamStatus';
import { selectCurrentWorkspaceId } from '../workspaces/workspaceSlice';
import { useGetServersQuery } from './serversApi';
import { selectFreshCachedServers } from './serversCacheSlice';

/** How often the list refreshes itself while the live stream is not connected. */
const FALLBACK_POLL_MS = 30_000;

export interface ServersList {
  workspaceId: string | null;
  /** The freshest list known: the server's answer, else this tab's copy under 5 minutes old. */
  servers: ServerDto[] | undefined;
  /** Nothing to show yet (no answer and no fresh cached copy). */
  isLoading: boolean;
  /** True while a cached copy is shown and the server's answer is on its way. */
  isRefreshing: boolean;
  /** 'Authentication required' without a user or workspace; else the load error, if any. */
  error: string | null;
  refetch: () => void;
}

/** The current workspace's servers as the servers page shows them (SPEC §4 Servers, §8). */
export function useServersList(): ServersList {
  const user = useAppSelector(selectCurrentUser);
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const cached = useAppSelector((state) => selectFreshCachedServers(state, workspaceId, Date.now()));
  const authenticated = Boolean(user && workspaceId);
  // The live stream pushes every status change; without it, the list refreshes on its own.
  const liveConnected = useLiveStreamStatus() === 'connected';
  const query = useGetServersQuery(workspaceId ?? '', {
    skip: !authenticated,
    pollingInterval: liveConnected ? 0 : FALLBACK_POLL_MS,
  });
  const { toast } = useToast();

  const servers = query.currentData ?? cached ?? undefined;
  const loadError = query.isError ? errorMessage(query.error) : null;

  // SPEC §8: the toast only when there is nothing to show; a cached list stays on screen.
  const toastedFor = useRef<unknown>(null);
  useEffect(() => {
    if (!query.isError || (servers && servers.length > 0) || toastedFor.current === query.error) return;
    toastedFor.current = query.error;
    toast({ title: ErrorText.failedToLoadServers, description: errorMessage(query.error), variant: 'destructive' });
  }, [query.isError, query.error, servers, toast]);

  return {
    workspaceId,
    servers: authenticated ? servers : undefined,
    isLoading: authenticated && servers === undefined && !query.isError,
    isRefreshing: authenticated && query.currentData === undefined && cached !== null && query.isFetching,
    error: authenticated ? loadError : ErrorText.authenticationRequired,
    refetch: () => {
      if (authenticated) void query.refetch();
    },
  };
}
