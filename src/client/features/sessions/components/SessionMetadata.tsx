import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { SessionDto } from '../../../../contract/sessions';
import { CopyButton } from '../../../components/CopyButton';
import { formatClient, formatDuration, serverPath } from '../formatting';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography variant="body2" component="dd" sx={{ m: 0, wordBreak: 'break-all' }}>
        {children}
      </Typography>
    </Box>
  );
}

export function SessionMetadata({ session }: { session: SessionDto }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
        <Field label="Status">
          <Chip size="small" label={session.status === 'active' ? 'Active' : 'Ended'} color={session.status === 'active' ? 'success' : 'default'} />
        </Field>
        <Field label="Server">
          <Link component={RouterLink} to={serverPath(session.serverId)}>
            {session.serverName ?? 'Deleted server'}
          </Link>
        </Field>
        <Field label="Client">{formatClient(session.clientName, session.clientVersion)}</Field>
        <Field label="Protocol">{`${session.protocolVersion ?? 'unknown'} · ${session.transport}`}</Field>
        <Field label="Started">{new Date(session.startedAt).toLocaleString()}</Field>
        <Field label={session.endedAt ? 'Ended' : 'Last activity'}>{new Date(session.endedAt ?? session.lastActivityAt).toLocaleString()}</Field>
        <Field label="Duration">{formatDuration(session.durationMs)}</Field>
        <Field label="Messages / calls / errors">
          {`${session.messageCount.toLocaleString()} / ${session.callCount.toLocaleString()} / `}
          <Box component="span" sx={{ color: session.errorCount > 0 ? 'error.main' : undefined, fontWeight: session.errorCount > 0 ? 600 : undefined }}>
            {session.errorCount.toLocaleString()}
          </Box>
        </Field>
        {session.mcpSessionId && (
          <Field label="MCP session id">
            {session.mcpSessionId}
            <CopyButton text={session.mcpSessionId} label="Copy MCP session id" />
          </Field>
        )}
      </Box>
    </Paper>
  );
}
