import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { IntegrationActivityDto, IntegrationDto } from '../../../../contract/integrations';
import { errorMessage } from '../../../api/apiError';
import { RelativeTime } from '../../../components/RelativeTime';
import { useGetIntegrationActivitiesQuery } from '../integrationsApi';

const STATUS_COLOUR = { delivered: 'success', retrying: 'warning', failed: 'error', skipped: 'default' } as const;

interface ActivityLogDialogProps {
  workspaceId: string;
  integration: IntegrationDto;
  canResend: boolean;
  onResend: (activity: IntegrationActivityDto) => void;
  onClose: () => void;
}

/** Every delivery attempt, newest first; refreshed while open so retries show as they happen. */
export function ActivityLogDialog({ workspaceId, integration, canResend, onResend, onClose }: ActivityLogDialogProps) {
  const activities = useGetIntegrationActivitiesQuery({ workspaceId, id: integration.id }, { pollingInterval: 5_000 });
  const list = activities.currentData;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="activity-log-title">
      <DialogTitle id="activity-log-title">Deliveries of {integration.name}</DialogTitle>
      <DialogContent>
        {activities.isError && <Alert severity="error">{errorMessage(activities.error)}</Alert>}
        {!list && !activities.isError && <Skeleton variant="rounded" height={160} />}
        {list && list.length === 0 && (
          <Typography color="text.secondary">
            Nothing sent yet. Matching notifications and tests appear here.
          </Typography>
        )}
        {list && list.length > 0 && (
          <TableContainer sx={{ maxHeight: 480 }}>
            <Table size="small" stickyHeader aria-label="Delivery attempts">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>Event</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right">Attempt</TableCell>
                  <TableCell align="right">Code</TableCell>
                  <TableCell align="right">Time</TableCell>
                  <TableCell>Details</TableCell>
                  {canResend && <TableCell />}
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((a) => (
                  <TableRow key={a.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <RelativeTime value={a.createdAt} />
                    </TableCell>
                    <TableCell>{a.event}</TableCell>
                    <TableCell>
                      <Chip size="small" label={a.status} color={STATUS_COLOUR[a.status]} variant="outlined" />
                    </TableCell>
                    <TableCell align="right">{a.attempt}</TableCell>
                    <TableCell align="right">{a.statusCode ?? '—'}</TableCell>
                    <TableCell align="right">{a.latencyMs === null ? '—' : `${Math.round(a.latencyMs)} ms`}</TableCell>
                    <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
                      <Typography variant="body2">{a.summary}</Typography>
                      {a.error && (
                        <Typography variant="caption" color="error.main">
                          {a.error}
                        </Typography>
                      )}
                    </TableCell>
                    {canResend && (
                      <TableCell>
                        {a.deliveryId && (
                          <Button size="small" onClick={() => onResend(a)}>
                            Send again
                          </Button>
                        )}
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
