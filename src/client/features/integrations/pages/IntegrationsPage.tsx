import Alert from '@mui/material/Alert';
import { useAppSelector } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';
import { useGetWorkspacesQuery } from '../../workspaces/workspacesApi';
import { selectCurrentWorkspace, selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { IntegrationsPanel } from '../components/IntegrationsPanel';

/** Integrations: where this workspace's notifications also go (Slack, PagerDuty, webhooks, email). */
export default function IntegrationsPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  useGetWorkspacesQuery();
  const workspace = useAppSelector(selectCurrentWorkspace);
  const canManage = workspace?.role === 'owner' || workspace?.role === 'admin';
  return (
    <>
      <PageHeader title="Integrations" subtitle="Send Toolscope's alerts to the tools your team uses" />
      {workspaceId ? (
        <IntegrationsPanel workspaceId={workspaceId} canManage={canManage} />
      ) : (
        <Alert severity="info">Choose or create a workspace to manage its integrations.</Alert>
      )}
    </>
  );
}
