import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { MessageDto, ToolCallDto } from '../../../../contract/sessions';
import { isFailedCall } from '../../../../contract/sessions';
import { formatBytes, formatDuration } from '../../../components/formatting';
import { PayloadView } from '../../../components/toolCalls/PayloadView';

interface MessageRowProps {
  message: MessageDto;
  /** ms since the session started. */
  offsetMs: number;
  /**
   * The message's place in the replay (1, 2, 3…). Not `seq`: a session any instance may record is
   * numbered by the clock (sessionSeq.ts), so its seq reads as a millisecond offset.
   */
  number: number;
  /** The tool call this message requests or answers, if any. */
  toolCall?: ToolCallDto;
  current: boolean;
}

function isError(message: MessageDto, toolCall?: ToolCallDto): boolean {
  if (message.kind === 'error') return true;
  // A tool can fail inside a successful JSON-RPC response (result.isError).
  return message.kind === 'response' && toolCall !== undefined && isFailedCall(toolCall.status);
}

/** One JSON-RPC message of the timeline. Its payload is shown as text only. */
export function MessageRow({ message, offsetMs, number, toolCall, current }: MessageRowProps) {
  const error = isError(message, toolCall);
  const fromAgent = message.direction === 'client_to_server';
  // The JSON-RPC id is named "id", the message's place in the session "#": two numbers, two names.
  const title =
    message.method ??
    (message.kind === 'response' || message.kind === 'error'
      ? `${message.kind} to id ${message.jsonrpcId ?? '?'}`
      : message.kind);
  return (
    <Box
      component="li"
      aria-current={current ? 'step' : undefined}
      data-error={error || undefined}
      sx={{
        listStyle: 'none',
        borderLeft: '3px solid',
        borderColor: error ? 'error.main' : fromAgent ? 'primary.main' : 'success.main',
        bgcolor: current ? 'action.selected' : error ? 'rgba(244, 67, 54, 0.08)' : 'transparent',
        px: 2,
        py: 1,
        mb: 1,
        borderRadius: 1,
        minWidth: 0,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace', minWidth: 72 }}>
          {`+${(offsetMs / 1000).toFixed(3)} s`}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ minWidth: 96 }}>
          {fromAgent ? 'agent → server' : 'server → agent'}
        </Typography>
        <Chip
          size="small"
          label={message.kind}
          color={error ? 'error' : message.kind === 'request' ? 'primary' : 'default'}
          variant="outlined"
        />
        <Typography variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {message.progressCount !== undefined && (
          <Chip size="small" variant="outlined" label={`${message.progressCount} progress notifications in all`} />
        )}
        {toolCall && message.kind === 'request' && (
          <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            {toolCall.toolName}
          </Typography>
        )}
        {toolCall && message.kind !== 'request' && (
          <Typography variant="caption" color={isFailedCall(toolCall.status) ? 'error.main' : 'text.secondary'}>
            {isFailedCall(toolCall.status)
              ? `failed after ${formatDuration(toolCall.durationMs)}`
              : `took ${formatDuration(toolCall.durationMs)}`}
          </Typography>
        )}
        <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
          {`#${number} · ${formatBytes(message.sizeBytes)}`}
        </Typography>
      </Box>
      {error && toolCall?.errorMessage && (
        <Typography
          variant="body2"
          color="error.main"
          sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {toolCall.errorMessage}
        </Typography>
      )}
      <PayloadView label="Payload" value={message.payload} defaultOpen={error} truncatedAtSource={message.truncated} />
    </Box>
  );
}
