import Chip from '@mui/material/Chip';
import Box from '@mui/material/Box';
import type { DeploymentStatus } from '../../../../contract/deployments';

const LOOK: Record<
  DeploymentStatus | 'none',
  { label: string; color: 'default' | 'success' | 'warning' | 'error' | 'info' }
> = {
  none: { label: 'Not deployed', color: 'default' },
  pending: { label: 'Pending', color: 'default' },
  starting: { label: 'Starting', color: 'info' },
  running: { label: 'Running', color: 'success' },
  restarting: { label: 'Restarting', color: 'warning' },
  crashed: { label: 'Crashed', color: 'error' },
  stopped: { label: 'Stopped', color: 'default' },
  failed: { label: 'Failed', color: 'error' },
};

/** The latest deployment's status; it moves live with the deployment_updated messages. */
export function DeploymentStatusChip({ status }: { status: DeploymentStatus | null }) {
  const look = LOOK[status ?? 'none'];
  return (
    <Chip
      size="small"
      variant="outlined"
      label={look.label}
      color={look.color}
      data-testid="deployment-status"
      data-status={status ?? 'none'}
      icon={
        <Box
          component="span"
          sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'currentColor', ml: '8px !important' }}
        />
      }
    />
  );
}
