import { useParams, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import { errorMessage, isApiError } from '../../../api/apiError';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { SettingsTabs } from '../../../components/SettingsTabs';
import { useFlags } from '../../flags/useFlag';
import { WorkspaceAuditLogTab } from '../../audit';
import { WorkspaceIntegrationsTab } from '../../integrations';
import { WorkspaceRedactionTab } from '../../redaction';
import { WorkspaceDataTab } from '../../retention';
import { WorkspaceSecurityTab } from '../../keys';
import { MembersPanel, MyInvitations } from '../../members';
import { WorkspaceTelemetryTab } from '../../telemetry';
import { GeneralTab } from '../settings/GeneralTab';
import { NotificationSettingsTab } from '../settings/NotificationSettingsTab';
import { useGetWorkspaceQuery } from '../workspacesApi';

type WorkspaceTab =
  'general' | 'members' | 'notifications' | 'redaction' | 'data' | 'security' | 'telemetry' | 'integrations' | 'audit';

/** /workspace/{workspaceId}/settings: General, Members, Notifications, Redaction, Data (retention and export), the flagged Security, Telemetry and Integrations tabs, and the Audit log. */
export default function WorkspaceSettingsPage() {
  const { workspaceId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const flags = useFlags();
  const workspace = useGetWorkspaceQuery(workspaceId, { skip: !workspaceId });

  const tabs: { id: WorkspaceTab; label: string }[] = [
    { id: 'general', label: 'General' },
    { id: 'members', label: 'Members' },
    { id: 'notifications', label: 'Notifications' },
    { id: 'redaction', label: 'Redaction' },
    { id: 'data', label: 'Data' },
    ...(flags.show_workspace_security ? [{ id: 'security' as const, label: 'Security' }] : []),
    ...(flags.show_workspace_telemetry ? [{ id: 'telemetry' as const, label: 'Telemetry' }] : []),
    ...(flags.show_workspace_integrations ? [{ id: 'integrations' as const, label: 'Integrations' }] : []),
    { id: 'audit', label: 'Audit log' },
  ];
  const tab: WorkspaceTab = tabs.find((t) => t.id === params.get('tab'))?.id ?? 'general';

  if (workspace.isError && isApiError(workspace.error) && workspace.error.status === 404) {
    return (
      <>
        <PageHeader title="Workspace Settings" />
        {/* An invitation's link leads here before the invitee is a member: answer it in place. */}
        <MyInvitations workspaceId={workspaceId} />
        <EmptyState
          icon={<SettingsOutlinedIcon />}
          title="Workspace not found"
          description="This workspace does not exist or you are not a member of it."
          action={{ label: 'Back to the overview', to: '/dashboard' }}
        />
      </>
    );
  }
  const data = workspace.data;
  const canManage = data?.role === 'owner' || data?.role === 'admin';
  return (
    <>
      <PageHeader
        title="Workspace Settings"
        subtitle={data ? data.name : 'Name, members and notifications of this workspace'}
      />
      {workspace.isError && !data && <Alert severity="error">{errorMessage(workspace.error)}</Alert>}
      {!data && !workspace.isError && <Skeleton variant="rounded" height={280} aria-label="Loading workspace" />}
      {data && (
        <>
          <SettingsTabs
            label="Workspace settings"
            idPrefix="workspace"
            tabs={tabs}
            value={tab}
            onChange={(value) => setParams({ tab: value })}
          >
            {tab === 'general' && <GeneralTab workspace={data} />}
            {tab === 'members' && <MembersPanel workspace={data} />}
            {tab === 'notifications' && <NotificationSettingsTab workspace={data} />}
            {tab === 'redaction' && <WorkspaceRedactionTab workspace={data} />}
            {tab === 'data' && (
              <WorkspaceDataTab workspaceId={data.id} canManage={canManage} isOwner={data.role === 'owner'} />
            )}
            {tab === 'security' && <WorkspaceSecurityTab workspace={data} />}
            {tab === 'telemetry' && <WorkspaceTelemetryTab workspaceId={data.id} canManage={canManage} />}
            {tab === 'integrations' && <WorkspaceIntegrationsTab workspaceId={data.id} canManage={canManage} />}
            {tab === 'audit' && <WorkspaceAuditLogTab workspaceId={data.id} canView={canManage} />}
          </SettingsTabs>
        </>
      )}
    </>
  );
}
