import { formatDateTime } from '../../../components/dates/dateDisplay';
import { useMemo } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PsychologyOutlinedIcon from '@mui/icons-material/PsychologyOutlined';
import { ErrorText } from '../../../../contract/errors';
import { LIVE_PAGE_MAX } from '../../../../contract/activity';
import { errorMessage } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { formatClient, sessionPath } from '../../../components/formatting';
import { useGetLiveToolCallsQuery, useGetSessionsQuery } from '../../sessions/sessionsApi';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { CallWaterfall } from '../components/CallWaterfall';

const RECENT_SESSIONS = 25;

/** /thought-tracing ("Tool Reasoning"): one session's chain of tool calls with the agent's reasoning. */
export default function ThoughtTracingPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const [search, setSearch] = useSearchParams();
  const recent = useGetSessionsQuery(workspaceId ? { workspaceId, limit: RECENT_SESSIONS } : skipToken);
  const chosen = search.get('sessionId') ?? recent.data?.sessions[0]?.id ?? null;
  const calls = useGetLiveToolCallsQuery(
    workspaceId && chosen ? { workspaceId, session_id: chosen, limit: LIVE_PAGE_MAX } : skipToken,
  );
  // The endpoint answers newest first; a chain reads oldest first.
  const chain = useMemo(() => [...(calls.data?.toolCalls ?? [])].reverse(), [calls.data]);

  const header = (
    <PageHeader
      title="Tool Reasoning"
      subtitle="Each session's chain of tool calls: order, timing, failures, what came next, and why"
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
  if (recent.isError || calls.isError) {
    const failed = recent.isError ? recent : calls;
    return (
      <>
        {header}
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void failed.refetch()}>
              Retry
            </Button>
          }
        >
          {errorMessage(failed.error)}
        </Alert>
      </>
    );
  }
  if (recent.data && recent.data.total === 0 && !search.get('sessionId')) {
    return (
      <>
        {header}
        <EmptyState
          icon={<PsychologyOutlinedIcon />}
          title="No sessions to trace yet"
          description="When an agent calls tools through a proxy URL, its chain of calls appears here with any reasoning it attached (text in _meta, or a W3C traceparent linking the call to its own trace)."
          action={{ label: 'Connect a tool server', to: '/servers' }}
        />
      </>
    );
  }

  const options = recent.data?.sessions ?? [];
  return (
    <>
      {header}
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label="Session"
          value={options.some((s) => s.id === chosen) ? chosen : ''}
          onChange={(e) => setSearch({ sessionId: e.target.value })}
          sx={{ minWidth: 320 }}
        >
          {options.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {`${formatClient(s.clientName, s.clientVersion)} · ${s.serverName ?? 'server'} · ${formatDateTime(s.startedAt)} · ${s.callCount} calls`}
            </MenuItem>
          ))}
        </TextField>
        {chosen && (
          <Button component={RouterLink} to={sessionPath(chosen)}>
            Open session
          </Button>
        )}
      </Box>
      <Paper variant="outlined" sx={{ p: 2 }}>
        {!calls.data ? (
          <Box role="progressbar" aria-label="Loading tool calls">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Box>
        ) : chain.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
            This session made no tool calls.
          </Typography>
        ) : (
          <>
            {chain.length >= LIVE_PAGE_MAX && (
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
                {`Showing the last ${LIVE_PAGE_MAX} calls of this session.`}
              </Typography>
            )}
            <CallWaterfall calls={chain} sessionActive={options.find((s) => s.id === chosen)?.status === 'active'} />
          </>
        )}
      </Paper>
    </>
  );
}
