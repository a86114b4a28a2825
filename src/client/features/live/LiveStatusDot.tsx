import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import type { LiveStreamStatus } from './liveStreamMachine';
import { useLiveStreamStatus } from './useLiveStreamStatus';

const LOOK: Record<LiveStreamStatus, { label: string; color: string }> = {
  connected: { label: 'connected', color: 'success.main' },
  connecting: { label: 'connecting', color: 'warning.main' },
  reconnecting: { label: 'reconnecting', color: 'warning.main' },
  closed: { label: 'closed', color: 'error.main' },
  off: { label: 'off', color: 'text.disabled' },
};

/** A small dot in the header: is the live stream delivering updates? */
export function LiveStatusDot() {
  const status = useLiveStreamStatus();
  const { label, color } = LOOK[status];
  return (
    <Tooltip title={`Live: ${label}`}>
      <Box
        role="status"
        aria-label={`Live: ${label}`}
        data-status={status}
        sx={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          bgcolor: color,
          mx: 1,
          flexShrink: 0,
          boxShadow: status === 'connected' ? '0 0 0 3px rgba(76,175,80,0.18)' : 'none',
        }}
      />
    </Tooltip>
  );
}
