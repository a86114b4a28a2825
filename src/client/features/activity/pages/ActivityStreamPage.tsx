import { useReducer } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { ErrorText } from '../../../../contract/errors';
import type { ServerDto } from '../../../../contract/servers';
import { useAppSelector } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';
import { VirtualRows } from '../../../components/VirtualRows';
import { useGetServersQuery } from '../../servers/serversApi';
import { useGetToolCallTimeSeriesQuery } from '../../sessions/sessionsApi';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { eventKey, feedReducer, hasFilters, initialFeed } from '../activityFeed';
import { ActivityFilterBar } from '../components/ActivityFilterBar';
import { ActivityRow } from '../components/ActivityRow';
import { CallsChart } from '../components/CallsChart';
import { ACTIVITY_POLL_MS, useActivityPolling, useOlderActivity } from '../useActivityPolling';
import { useActivityFilters } from '../useActivityFilters';
import { useToolNameSuggestions } from '../useToolNameSuggestions';
import { useLiveActivity } from '../useLiveActivity';
import { useLiveStreamStatus } from '../../live/useLiveStreamStatus';
import { useGetPreferencesQuery } from '../../settings';

const ROW_HEIGHT = 44;
const NO_SERVERS: ServerDto[] = [];

/** /activity-stream: the workspace's tool calls and sessions as they happen. */
export default function ActivityStreamPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  // The stream opens live or paused as the user's preference says (Settings → Preferences).
  const startsPaused = useGetPreferencesQuery().data?.activityStreamDefault === 'paused';
  const [feed, dispatch] = useReducer(feedReducer, initialFeed, (feed) => ({ ...feed, paused: startsPaused }));
  const [filters, setFilters] = useActivityFilters();
  const servers = useGetServersQuery(workspaceId ?? skipToken);
  const series = useGetToolCallTimeSeriesQuery(
    workspaceId ? { workspaceId, period: '1h', interval: '1m', serverId: filters.serverId || undefined } : skipToken,
    { pollingInterval: 60_000 },
  );
  const live = useLiveStreamStatus() === 'connected';
  const poll = useActivityPolling(workspaceId, filters, dispatch, live, feed);
  useLiveActivity(workspaceId, filters, dispatch);
  const older = useOlderActivity(workspaceId, filters, dispatch, feed);
  const serverList = servers.data ?? NO_SERVERS;
  const toolNames = useToolNameSuggestions(workspaceId, feed.events);

  const header = (
    <PageHeader
      title="Activity Stream"
      subtitle="Tool calls and sessions of this workspace as they happen"
      actions={
        feed.paused ? (
          <Button variant="contained" startIcon={<PlayArrowIcon />} onClick={() => dispatch({ type: 'resumed' })}>
            {feed.pending.length > 0 ? `Resume (${feed.pending.length} new)` : 'Resume'}
          </Button>
        ) : (
          <Button
            variant="outlined"
            startIcon={<PauseIcon />}
            onClick={() => dispatch({ type: 'paused' })}
            disabled={!workspaceId}
          >
            Pause
          </Button>
        )
      }
    />
  );
  if (!workspaceId) {
    return (
      <>
        {header}
        <Alert severity="info">{ErrorText.noWorkspace}</Alert>
      </>
    );
  }

  return (
    <>
      {header}
      {live ? (
        <Alert severity="success" sx={{ mb: 2 }} role="status">
          Live: new calls appear as they happen.
        </Alert>
      ) : (
        <Alert severity="info" sx={{ mb: 2 }} role="status">
          {`Live stream not connected: checking for new activity every ${ACTIVITY_POLL_MS / 1000} seconds.`}
        </Alert>
      )}
      {series.data && (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <CallsChart series={series.data} title="Calls per minute, last hour" />
        </Paper>
      )}
      <ActivityFilterBar filters={filters} servers={serverList} toolNames={toolNames} onChange={setFilters} />
      {poll.phase === 'failed' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {`${poll.message}. Trying again in ${ACTIVITY_POLL_MS / 1000} seconds.`}
        </Alert>
      )}
      {feed.paused && (
        <Typography variant="body2" color="warning.main" sx={{ mb: 1 }} role="status">
          {`Paused. ${feed.pending.length} new event${feed.pending.length === 1 ? '' : 's'} waiting.`}
        </Typography>
      )}
      <Paper variant="outlined">
        {poll.phase === 'loading' && feed.events.length === 0 ? (
          <Box role="progressbar" aria-label="Loading activity" sx={{ p: 2 }}>
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} height={ROW_HEIGHT - 8} />
            ))}
          </Box>
        ) : feed.events.length === 0 ? (
          <Box sx={{ p: 4, textAlign: 'center' }}>
            <Typography variant="h6" component="h2">
              {hasFilters(filters) ? 'No calls match' : 'No activity yet'}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {hasFilters(filters)
                ? 'No call matches these filters so far. New calls will appear here as they happen.'
                : 'Point an agent at a proxy URL from the Tool Servers page; its calls will appear here as they happen.'}
            </Typography>
          </Box>
        ) : (
          <VirtualRows
            label="Activity"
            count={feed.events.length}
            estimateSize={ROW_HEIGHT}
            height={Math.min(600, feed.events.length * ROW_HEIGHT + 2)}
            getKey={(index) => eventKey(feed.events[index])}
            renderRow={(index) => <ActivityRow event={feed.events[index]} />}
          />
        )}
      </Paper>
      {feed.events.length > 0 && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1.5, flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            size="small"
            onClick={() => void older.loadOlder()}
            disabled={older.state.phase === 'loading' || feed.exhausted}
          >
            {older.state.phase === 'loading'
              ? 'Loading…'
              : hasFilters(filters)
                ? 'Load older matching activity'
                : 'Load older activity'}
          </Button>
          <Typography variant="body2" color={older.state.phase === 'failed' ? 'error' : 'text.secondary'} role="status">
            {older.state.phase === 'failed'
              ? `Could not load older activity: ${older.state.message}`
              : feed.exhausted
                ? `No older activity${hasFilters(filters) ? ' matches these filters' : ''}. Showing ${feed.events.length.toLocaleString()}.`
                : `Showing ${feed.events.length.toLocaleString()} event${feed.events.length === 1 ? '' : 's'}${hasFilters(filters) ? ' matching the filters' : ''}.`}
          </Typography>
        </Box>
      )}
    </>
  );
}
