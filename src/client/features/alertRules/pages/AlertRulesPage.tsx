import Alert from '@mui/material/Alert';
import { useSearchParams } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';
import { useGetWorkspacesQuery } from '../../workspaces/workspacesApi';
import { selectCurrentWorkspace, selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { AlertRulesPanel } from '../components/AlertRulesPanel';

/** Alert rules: the workspace's own thresholds on its agents' tool traffic. */
export default function AlertRulesPage() {
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  useGetWorkspacesQuery();
  const workspace = useAppSelector(selectCurrentWorkspace);
  const canManage = workspace?.role === 'owner' || workspace?.role === 'admin';
  // A notification's link opens its rule with the history shown.
  const [params] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Alert Rules"
        subtitle="Be told when your agents' tool traffic crosses your thresholds — once when it fires, once when it resolves"
      />
      {workspaceId ? (
        <AlertRulesPanel workspaceId={workspaceId} canManage={canManage} highlightedId={params.get('ruleId')} />
      ) : (
        <Alert severity="info">Choose or create a workspace to manage its alert rules.</Alert>
      )}
    </>
  );
}
