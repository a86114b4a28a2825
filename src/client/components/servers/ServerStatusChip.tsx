import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ServerDto } from '../../../contract/servers';
import { RelativeTime } from '../RelativeTime';

/** Online / offline as the health monitor last saw it, and when that was. */
export function ServerStatusChip({ server }: { server: ServerDto }) {
  const online = server.status === 'online';
  const neverChecked = server.lastChecked === null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Chip
        size="small"
        label={neverChecked && !online ? 'Checking…' : online ? 'Online' : 'Offline'}
        color={online ? 'success' : neverChecked ? 'default' : 'error'}
        variant="outlined"
        icon={
          <Box
            component="span"
            sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'currentColor', ml: '8px !important' }}
          />
        }
        data-testid="server-status"
        data-status={server.status}
      />
      <Typography variant="caption" color="text.secondary">
        {server.lastChecked ? (
          <>
            checked <RelativeTime value={server.lastChecked} />
          </>
        ) : (
          'not checked yet'
        )}
      </Typography>
    </Box>
  );
}
