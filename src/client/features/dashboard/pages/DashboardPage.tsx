import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import BoltOutlinedIcon from '@mui/icons-material/BoltOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import { errorMessage } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { EmptyState } from '../../../components/EmptyState';
import { formatCount, formatMs, formatPercent, tokenDetail } from '../../../components/analytics/format';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { AgentCallUsage } from '../../billing';
import { useLiveStreamStatus } from '../../live/useLiveStreamStatus';
import { useGetServersQuery } from '../../servers/serversApi';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { LatestActivity } from '../components/LatestActivity';
import { ServersHealthCard } from '../components/ServersHealthCard';
import { CachedNumbersHint } from '../components/CachedNumbersHint';
import { StatCard } from '../components/StatCard';
import { startOfLocalDay, useGetDashboardOverviewQuery } from '../dashboardApi';

/** While the live stream is down, the overview still refreshes on its own this often. */
const FALLBACK_POLL_MS = 30_000;

/** Overview (/dashboard): today's traffic and the health of the workspace's servers. */
export default function DashboardPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const live = useLiveStreamStatus();
  const since = useMemo(() => startOfLocalDay(), []);
  // Numbers a returning user's cache still holds (from an earlier visit, up to 24 h old) are shown
  // at once, but asked for again right away, whatever their age, and marked as being refreshed.
  const [mountedAt] = useState(() => Date.now());
  const overview = useGetDashboardOverviewQuery(
    { workspaceId: workspaceId ?? '', since },
    {
      skip: !workspaceId,
      pollingInterval: live === 'connected' ? 0 : FALLBACK_POLL_MS,
      refetchOnMountOrArgChange: true,
    },
  );
  const { currentData: servers } = useGetServersQuery(workspaceId ?? '', {
    skip: !workspaceId,
    refetchOnMountOrArgChange: true,
  });
  const data = overview.currentData;
  const loading = !data && !overview.isError;
  const cachedAt =
    data && overview.fulfilledTimeStamp !== undefined && overview.fulfilledTimeStamp < mountedAt
      ? new Date(overview.fulfilledTimeStamp).toISOString()
      : null;

  const header = (
    <PageHeader
      title="Overview"
      subtitle={
        <>
          {data?.lastActivityAt ? (
            <>
              Today in this workspace · last activity <RelativeTime value={data.lastActivityAt} />
            </>
          ) : (
            'Today in this workspace'
          )}
          {cachedAt && (
            <CachedNumbersHint cachedAt={cachedAt} failed={overview.isError} onRetry={() => void overview.refetch()} />
          )}
        </>
      }
    />
  );

  if (overview.isError && !data) {
    return (
      <>
        {header}
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void overview.refetch()}>
              Retry
            </Button>
          }
        >
          {errorMessage(overview.error)}
        </Alert>
      </>
    );
  }

  if (data && data.servers.total === 0) {
    return (
      <>
        {header}
        <EmptyState
          icon={<DnsOutlinedIcon />}
          title="Connect your first tool server"
          description="Register an MCP server to get its proxy URL. Point an agent at it and this overview fills with sessions, tool calls, error rate and latency as they happen."
          action={{ label: 'Connect a tool server', to: '/servers' }}
        />
      </>
    );
  }

  return (
    <>
      {header}
      <Box
        sx={{
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(5, minmax(0, 1fr))' },
          mb: 2.5,
        }}
      >
        <StatCard
          label="Servers online"
          icon={<DnsOutlinedIcon />}
          loading={loading}
          value={data ? `${data.servers.online} / ${data.servers.total}` : ''}
          detail={
            data ? (data.servers.offline === 0 ? 'All responding' : `${data.servers.offline} offline`) : undefined
          }
        />
        <StatCard
          label="Sessions today"
          icon={<ForumOutlinedIcon />}
          loading={loading}
          value={data ? formatCount(data.sessions.today) : ''}
          detail={data ? `${formatCount(data.sessions.active)} active now` : undefined}
        />
        <StatCard
          label="Tool calls today"
          icon={<BoltOutlinedIcon />}
          loading={loading}
          value={data ? formatCount(data.toolCalls.today) : ''}
          detail={
            data
              ? `${formatCount(data.toolCalls.tokens)} tokens, ${tokenDetail(data.toolCalls.tokens, data.toolCalls.definitionTokens, data.tokenCorrection)}`
              : undefined
          }
        />
        <StatCard
          label="Error rate"
          icon={<ErrorOutlineIcon />}
          loading={loading}
          value={data ? (data.errorRate === null ? '—' : formatPercent(data.errorRate)) : ''}
          detail={data ? `${formatCount(data.toolCalls.errors)} failed calls` : undefined}
        />
        <StatCard
          label="Latency p95"
          icon={<SpeedOutlinedIcon />}
          loading={loading}
          value={data ? formatMs(data.latencyP95Ms) : ''}
          detail={
            data ? (data.latencyP95Ms === null ? 'No finished calls today' : 'Slowest 5% of calls today') : undefined
          }
        />
      </Box>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 1fr)' } }}>
        <LatestActivity calls={data?.latestActivity ?? []} loading={loading} />
        <ServersHealthCard
          online={data?.servers.online ?? 0}
          total={data?.servers.total ?? 0}
          servers={servers ?? []}
          loading={loading}
        />
      </Box>
      <Box sx={{ mt: 2.5 }}>
        <AgentCallUsage />
      </Box>
    </>
  );
}
