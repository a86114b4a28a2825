import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { SessionDto } from '../../../../contract/sessions';
import { RelativeTime } from '../../../components/RelativeTime';
import { formatClient, formatDuration, serverPath, sessionPath } from '../formatting';

/** Columns shared by the header and every row. */
export const SESSION_GRID = { xs: '1fr 1fr', md: '96px 1.2fr 1.4fr 0.8fr 1fr 0.8fr 64px 64px' };

export function SessionHeaderRow() {
  return (
    <Box role="presentation" sx={{ display: { xs: 'none', md: 'grid' }, gridTemplateColumns: SESSION_GRID, gap: 1.5, px: 2, py: 1, color: 'text.secondary', typography: 'caption', textTransform: 'uppercase', letterSpacing: 0.5 }}>
      <span>Status</span>
      <span>Server</span>
      <span>Client</span>
      <span>Protocol</span>
      <span>Started</span>
      <span>Duration</span>
      <span>Calls</span>
      <span>Errors</span>
    </Box>
  );
}

/** One session: everything in it is text (client names come from agents and stay inert). */
export function SessionRow({ session }: { session: SessionDto }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: SESSION_GRID,
        gap: 1.5,
        alignItems: 'center',
        px: 2,
        py: 1.25,
        borderBottom: '1px solid',
        borderColor: 'divider',
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <Box>
        <Chip size="small" label={session.status === 'active' ? 'Active' : 'Ended'} color={session.status === 'active' ? 'success' : 'default'} variant={session.status === 'active' ? 'filled' : 'outlined'} />
      </Box>
      <Link component={RouterLink} to={serverPath(session.serverId)} underline="hover" noWrap title="Open the server">
        {session.serverName ?? 'Deleted server'}
      </Link>
      <Link component={RouterLink} to={sessionPath(session.id)} underline="hover" noWrap color="text.primary" aria-label={`Open session ${formatClient(session.clientName, session.clientVersion)} started ${session.startedAt}`}>
        {formatClient(session.clientName, session.clientVersion)}
      </Link>
      <Typography variant="body2" color="text.secondary" noWrap>
        {session.protocolVersion ?? '—'}
      </Typography>
      <Typography variant="body2">
        <RelativeTime value={session.startedAt} />
      </Typography>
      <Typography variant="body2">{formatDuration(session.durationMs)}</Typography>
      <Typography variant="body2">{session.callCount.toLocaleString()}</Typography>
      <Typography variant="body2" color={session.errorCount > 0 ? 'error.main' : 'text.secondary'} sx={{ fontWeight: session.errorCount > 0 ? 600 : undefined }}>
        {session.errorCount.toLocaleString()}
      </Typography>
    </Box>
  );
}
