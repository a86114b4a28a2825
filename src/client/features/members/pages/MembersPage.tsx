import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import { useAppSelector } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';
import { selectCurrentUser } from '../../auth/authSlice';
import { useGetWorkspacesQuery } from '../../workspaces/workspacesApi';
import { selectCurrentWorkspace, selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { MembersPanel } from '../components/MembersPanel';
import { MyInvitations } from '../components/MyInvitations';

/** /members: the members of the current workspace (the same panel as its settings' Members tab). */
export default function MembersPage() {
  const user = useAppSelector(selectCurrentUser);
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  // The role comes from the workspace list; subscribing keeps it loaded even outside the shell.
  const list = useGetWorkspacesQuery(undefined, { skip: !user });
  const workspace = useAppSelector(selectCurrentWorkspace);
  return (
    <>
      <PageHeader
        title="Members"
        subtitle={workspace ? `The people who share ${workspace.name}` : 'The people who share this workspace'}
      />
      <MyInvitations />
      {!workspaceId && <Alert severity="info">Choose or create a workspace to see its members.</Alert>}
      {workspaceId && !workspace && !list.isError && (
        <Skeleton variant="rounded" height={160} aria-label="Loading members" />
      )}
      {workspace && <MembersPanel workspace={workspace} />}
    </>
  );
}
