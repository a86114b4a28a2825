import { Link as RouterLink, useLocation } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useAppSelector } from '../app/hooks';
import { useGetServersQuery } from '../features/servers/serversApi';
import { selectCurrentWorkspaceId } from '../features/workspaces/workspaceSlice';
import { shouldShowNoServersBanner } from './noServersBannerRule';

/** The yellow 'No tool servers connected' banner with a link to /servers. */
export function NoServersBanner() {
  const { pathname } = useLocation();
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  // currentData is the list of *this* workspace: after a switch it is empty until it arrives.
  const { currentData: servers } = useGetServersQuery(workspaceId ?? '', { skip: !workspaceId });
  const show = shouldShowNoServersBanner({
    loaded: servers !== undefined,
    serverCount: servers?.length ?? 0,
    pathname,
  });
  if (!show) return null;
  return (
    <Alert
      severity="warning"
      variant="standard"
      sx={{ borderRadius: 0, borderLeft: 0, borderRight: 0, borderTop: 0, alignItems: 'center' }}
      action={
        <Button component={RouterLink} to="/servers" color="inherit" size="small" variant="outlined">
          Connect a tool server
        </Button>
      }
    >
      <strong>No tool servers connected</strong> — register one to start tracing your agents' tool calls.
    </Alert>
  );
}
