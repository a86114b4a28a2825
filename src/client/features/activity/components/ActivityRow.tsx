import { memo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ActivityEvent } from '../../../../contract/activity';
import { isFailedCall } from '../../../../contract/sessions';
import { formatClient, formatClockTime, formatDuration, serverPath, sessionPath } from '../../../components/formatting';

const STATUS_COLOR = {
  ok: 'success',
  error: 'error',
  timeout: 'error',
  cancelled: 'default',
  pending: 'warning',
} as const;

/**
 * One line of the feed; names and messages from agents and tools are shown as text only. Memoized:
 * a new batch re-renders only the rows whose event changed.
 */
export const ActivityRow = memo(function ActivityRow({ event }: { event: ActivityEvent }) {
  const failed = event.kind === 'tool_call' && isFailedCall(event.toolCall.status);
  return (
    <Box
      data-kind={event.kind}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: '110px 120px 1fr 1fr' },
        gap: 1.5,
        alignItems: 'center',
        px: 2,
        py: 1,
        borderBottom: '1px solid',
        borderColor: 'divider',
        bgcolor: failed ? 'rgba(244, 67, 54, 0.07)' : undefined,
      }}
    >
      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
        {formatClockTime(event.at)}
      </Typography>
      {event.kind === 'tool_call' ? (
        <>
          <Box>
            <Chip
              size="small"
              label={event.toolCall.status}
              color={STATUS_COLOR[event.toolCall.status]}
              variant={failed ? 'filled' : 'outlined'}
            />
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600 }} noWrap>
              {event.toolCall.toolName}
            </Typography>
            {failed && event.toolCall.errorMessage && (
              <Typography variant="caption" color="error.main" noWrap component="p">
                {event.toolCall.errorMessage}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary">
              {formatDuration(event.toolCall.durationMs)}
            </Typography>
            <Link component={RouterLink} to={serverPath(event.toolCall.serverId)} variant="caption" noWrap>
              {event.toolCall.serverName ?? 'server'}
            </Link>
            <Link
              component={RouterLink}
              to={sessionPath(event.toolCall.sessionId)}
              variant="caption"
              noWrap
              aria-label={`Session of ${event.toolCall.toolName} at ${formatClockTime(event.at)}`}
            >
              session
            </Link>
          </Box>
        </>
      ) : (
        <>
          <Box>
            <Chip
              size="small"
              label={event.kind === 'session_started' ? 'connected' : 'disconnected'}
              variant="outlined"
              color={event.kind === 'session_started' ? 'info' : 'default'}
            />
          </Box>
          <Typography variant="body2" noWrap>
            {`${formatClient(event.session.clientName, event.session.clientVersion)} ${event.kind === 'session_started' ? 'started a session' : `ended a session (${formatDuration(event.session.durationMs)}, ${event.session.callCount} calls)`}`}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', minWidth: 0 }}>
            <Link component={RouterLink} to={serverPath(event.session.serverId)} variant="caption" noWrap>
              {event.session.serverName ?? 'server'}
            </Link>
            <Link component={RouterLink} to={sessionPath(event.session.id)} variant="caption" noWrap>
              session
            </Link>
          </Box>
        </>
      )}
    </Box>
  );
});
