import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useMachine } from '@xstate/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ErrorText } from '../../../../contract/errors';
import { errorMessage, isApiError } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';
import { PageSkeleton } from '../../../components/PageSkeleton';
import { selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { DeleteSessionButton } from '../components/DeleteSessionButton';
import { MessageTimeline } from '../components/MessageTimeline';
import { ReplayControls } from '../components/ReplayControls';
import { ReplayWindowFields, type ReplayWindow } from '../components/ReplayWindowFields';
import { SessionMetadata } from '../components/SessionMetadata';
import { ToolCallCard } from '../../../components/toolCalls/ToolCallCard';
import { reasoningPath } from '../../../components/formatting';
import { replayMachine } from '../replay/replayMachine';
import { useGetSessionQuery, useGetSessionReplayQuery } from '../sessionsApi';
import { useLiveSessionRefresh } from '../useLiveSessionRefresh';

/** Messages per replay page (the endpoint allows up to 1000). */
export const REPLAY_PAGE_SIZE = 500;

/** /sessions/{sessionId}: metadata, the message timeline with a replay, and the tool calls. */
export default function SessionDetailPage() {
  const { sessionId = '' } = useParams();
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const [offset, setOffset] = useState(0);
  const [timeWindow, setTimeWindow] = useState<ReplayWindow>({});
  // A window that ends before it starts stays in the fields (marked) but is not asked for.
  const windowIsValid = !(timeWindow.startTime && timeWindow.endTime && timeWindow.startTime > timeWindow.endTime);
  const session = useGetSessionQuery(workspaceId ? { workspaceId, sessionId } : skipToken);
  const replay = useGetSessionReplayQuery(
    workspaceId
      ? { workspaceId, sessionId, limit: REPLAY_PAGE_SIZE, offset, ...(windowIsValid ? timeWindow : {}) }
      : skipToken,
  );
  const [player, send, playerRef] = useMachine(replayMachine);
  const keepPlaying = useRef(false);

  const page = replay.data;
  useEffect(() => {
    if (!page) return;
    send({ type: 'LOADED', times: page.messages.map((m) => Date.parse(m.createdAt)) });
    if (keepPlaying.current) {
      keepPlaying.current = false;
      send({ type: 'PLAY' });
    }
  }, [page, send]);

  const playing = player.matches('playing');
  const { position } = player.context;
  // At the end of a page while playing, carry on with the next page. The player never rests in
  // `playing` at the end (it goes back to `idle` in the same step), so the move is what says so.
  useEffect(() => {
    if (!page) return undefined;
    let wasPlaying = playerRef.getSnapshot().matches('playing');
    const subscription = playerRef.subscribe((snapshot) => {
      const playedToEnd = wasPlaying && snapshot.matches('idle') && snapshot.context.position >= page.messages.length;
      wasPlaying = snapshot.matches('playing');
      if (playedToEnd && offset + REPLAY_PAGE_SIZE < page.total) {
        keepPlaying.current = true;
        setOffset(offset + REPLAY_PAGE_SIZE);
      }
    });
    return () => subscription.unsubscribe();
  }, [page, offset, playerRef]);

  // An active session grows while it is open: follow it, unless the user is replaying.
  useLiveSessionRefresh(sessionId, player.matches('idle') && session.data?.status === 'active', () => {
    void session.refetch();
    void replay.refetch();
  });

  const header = (
    <PageHeader
      title="Session"
      subtitle="Every message in order, with a replay"
      actions={
        <>
          {workspaceId && session.data && <DeleteSessionButton workspaceId={workspaceId} session={session.data} />}
          <Button component={RouterLink} to="/sessions">
            All sessions
          </Button>
        </>
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
  if (session.isError) {
    const missing = isApiError(session.error) && session.error.status === 404;
    return (
      <>
        {header}
        <Alert
          severity={missing ? 'warning' : 'error'}
          action={
            missing ? undefined : (
              <Button color="inherit" size="small" onClick={() => void session.refetch()}>
                Retry
              </Button>
            )
          }
        >
          {missing ? 'This session does not exist in this workspace.' : errorMessage(session.error)}
        </Alert>
      </>
    );
  }
  if (!session.data) return <PageSkeleton />;

  const changeWindow = (next: ReplayWindow) => {
    setOffset(0);
    setTimeWindow(next);
  };
  return (
    <>
      {header}
      <SessionMetadata session={session.data} />
      {/* minmax(0, …): a column never grows past its share for a long unbroken payload line (the page must not scroll sideways). */}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
          alignItems: 'start',
        }}
      >
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            Timeline
          </Typography>
          <ReplayWindowFields value={timeWindow} onChange={changeWindow} />
          <ReplayControls
            playing={playing}
            position={position}
            count={page?.messages.length ?? 0}
            groupedProgress={(page?.messages ?? []).reduce(
              (sum, message) => sum + Math.max(0, (message.progressCount ?? 0) - 2),
              0,
            )}
            speed={player.context.speed}
            send={send}
          />
          {replay.isError ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void replay.refetch()}>
                  Retry
                </Button>
              }
            >
              {errorMessage(replay.error)}
            </Alert>
          ) : !page ? (
            <Typography color="text.secondary" role="progressbar" aria-label="Loading messages" sx={{ py: 2 }}>
              Loading messages…
            </Typography>
          ) : (
            <>
              <Box sx={{ maxHeight: 720, overflow: 'auto', mt: 1 }}>
                <MessageTimeline
                  messages={page.messages}
                  toolCalls={page.toolCalls}
                  position={position}
                  sessionStartedAt={session.data.startedAt}
                  firstNumber={offset + 1}
                  follow={!player.matches('idle')}
                />
              </Box>
              {page.total > REPLAY_PAGE_SIZE && (
                <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
                  <Typography variant="body2" color="text.secondary">
                    {`Messages ${(offset + 1).toLocaleString()}–${Math.min(page.total, offset + REPLAY_PAGE_SIZE).toLocaleString()} of ${page.total.toLocaleString()}`}
                  </Typography>
                  <Button
                    size="small"
                    disabled={offset === 0}
                    onClick={() => setOffset(Math.max(0, offset - REPLAY_PAGE_SIZE))}
                  >
                    Earlier
                  </Button>
                  <Button
                    size="small"
                    disabled={offset + REPLAY_PAGE_SIZE >= page.total}
                    onClick={() => setOffset(offset + REPLAY_PAGE_SIZE)}
                  >
                    Later
                  </Button>
                </Box>
              )}
            </>
          )}
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
            <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
              Tool calls
            </Typography>
            <Button size="small" component={RouterLink} to={reasoningPath(sessionId)}>
              Tool reasoning
            </Button>
          </Box>
          {page && page.toolCalls.length === 0 && (
            <Typography color="text.secondary">No tool calls in these messages.</Typography>
          )}
          {page?.toolCalls.map((call) => (
            <ToolCallCard key={call.id} call={call} />
          ))}
        </Paper>
      </Box>
    </>
  );
}
