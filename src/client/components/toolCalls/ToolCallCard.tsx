import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ToolCallDto } from '../../../contract/sessions';
import { isFailedCall } from '../../../contract/sessions';
import { formatBytes, formatClockTime, formatDuration } from '../formatting';
import { PayloadView } from './PayloadView';

const STATUS_COLOR = {
  ok: 'success',
  error: 'error',
  timeout: 'error',
  cancelled: 'default',
  pending: 'warning',
} as const;

/** A tool call with its arguments and result (collapsible JSON, text only) and a highlighted error. */
export function ToolCallCard({ call, children }: { call: ToolCallDto; children?: ReactNode }) {
  const failed = isFailedCall(call.status);
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-label={`Tool call ${call.toolName}`}
      sx={{
        p: 1.5,
        mb: 1,
        borderColor: failed ? 'error.main' : 'divider',
        bgcolor: failed ? 'rgba(244, 67, 54, 0.06)' : undefined,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere' }}>
          {call.toolName}
        </Typography>
        <Chip
          size="small"
          label={call.status}
          color={STATUS_COLOR[call.status]}
          variant={failed ? 'filled' : 'outlined'}
        />
        <Typography variant="caption" color="text.secondary">
          {`${formatClockTime(call.startedAt)} · ${formatDuration(call.durationMs)} · ${formatBytes(call.requestBytes)} in / ${formatBytes(call.responseBytes)} out · ${call.tokens === null ? 'tokens not counted yet' : `${call.tokens.toLocaleString()} tokens`}`}
        </Typography>
      </Box>
      {failed && call.errorMessage && (
        <Typography
          variant="body2"
          color="error.main"
          role="alert"
          sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {call.errorMessage}
        </Typography>
      )}
      {children}
      <PayloadView label="Arguments" value={call.arguments} />
      {call.result !== null && <PayloadView label="Result" value={call.result} defaultOpen={failed} />}
    </Paper>
  );
}
