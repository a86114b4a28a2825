import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { SessionDto } from '../../../../contract/sessions';
import { CopyButton } from '../../../components/CopyButton';
import {
  formatClient,
  formatDateTime,
  formatDuration,
  formatProtocol,
  serverPath,
} from '../../../components/formatting';

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <Box sx={{ minWidth: 0, gridColumn: wide ? 'span 2' : undefined }}>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography variant="body2" component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

export function SessionMetadata({ session }: { session: SessionDto }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}
      >
        <Field label="Status">
          <Chip
            size="small"
            label={session.status === 'active' ? 'Active' : 'Ended'}
            color={session.status === 'active' ? 'success' : 'default'}
          />
        </Field>
        <Field label="Server">
          <Link component={RouterLink} to={serverPath(session.serverId)}>
            {session.serverName ?? 'Deleted server'}
          </Link>
        </Field>
        <Field label="Client">{formatClient(session.clientName, session.clientVersion)}</Field>
        <Field label="Protocol">{`${formatProtocol(session.protocolVersion)} · ${session.transport}`}</Field>
        <Field label="Started">{formatDateTime(session.startedAt)}</Field>
        <Field label={session.endedAt ? 'Ended' : 'Last activity'}>
          {formatDateTime(session.endedAt ?? session.lastActivityAt)}
        </Field>
        <Field label="Duration">{formatDuration(session.durationMs)}</Field>
        <Field label="Messages / calls / errors">
          {`${session.messageCount.toLocaleString()} / ${session.callCount.toLocaleString()} / `}
          <Box
            component="span"
            sx={{
              color: session.errorCount > 0 ? 'error.main' : undefined,
              fontWeight: session.errorCount > 0 ? 600 : undefined,
            }}
          >
            {session.errorCount.toLocaleString()}
          </Box>
        </Field>
        {session.mcpSessionId && (
          <Field label="MCP session id" wide>
            {/* The id and its copy button stay together; a long id wraps as a whole line, not one character. */}
            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
              <Box component="span" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                {session.mcpSessionId}
              </Box>
              <CopyButton text={session.mcpSessionId} label="Copy MCP session id" />
            </Box>
          </Field>
        )}
      </Box>
    </Paper>
  );
}
