import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import { errorMessage } from '../../../api/apiError';
import { useGetAlertFiringsQuery } from '../alertRulesApi';

/** A rule's episodes, newest first: when it fired, at what value, and when it resolved. */
export function FiringHistory({ workspaceId, ruleId }: { workspaceId: string; ruleId: string }) {
  const { data, error, isLoading } = useGetAlertFiringsQuery({ workspaceId, id: ruleId });
  if (isLoading) return <Skeleton variant="rounded" height={48} />;
  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  if (!data || data.length === 0) return <Alert severity="info">It has not fired yet.</Alert>;
  return (
    <List dense aria-label="Firing history" disablePadding>
      {data.map((firing) => (
        <ListItem key={firing.id} disableGutters>
          <ListItemText
            primary={`Fired ${new Date(firing.firedAt).toLocaleString()}${firing.value === null ? '' : ` at ${firing.value}`}`}
            secondary={firing.resolvedAt ? `Resolved ${new Date(firing.resolvedAt).toLocaleString()}` : 'Still firing'}
          />
        </ListItem>
      ))}
    </List>
  );
}
