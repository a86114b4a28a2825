import { useParams, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import { errorMessage, isApiError } from '../../../api/apiError';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { useFlags } from '../../flags/useFlag';
import { MembersPanel, MyInvitations } from '../../members';
import { GeneralTab } from '../settings/GeneralTab';
import { NotificationSettingsTab } from '../settings/NotificationSettingsTab';
import { useGetWorkspaceQuery } from '../workspacesApi';

type WorkspaceTab = 'general' | 'members' | 'notifications' | 'security' | 'telemetry' | 'integrations';

// Tabs whose content other parts of the product build; until they land the tab says what it will hold.
const UPCOMING: Record<'security' | 'telemetry' | 'integrations', string> = {
  security: 'The workspace’s keys and secrets will be managed here: create, rotate and revoke what agents and deployments use.',
  telemetry: 'Telemetry exporters will be set up here: send this workspace’s traces and metrics to an OpenTelemetry collector or Prometheus.',
  integrations: 'Integrations will be set up here: post this workspace’s alerts and events to Slack, webhooks and other tools.',
};

/** /workspace/{workspaceId}/settings: General, Members, Notifications, and the flagged tabs. */
export default function WorkspaceSettingsPage() {
  const { workspaceId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const flags = useFlags();
  const workspace = useGetWorkspaceQuery(workspaceId, { skip: !workspaceId });

  const tabs: { id: WorkspaceTab; label: string }[] = [
    { id: 'general', label: 'General' },
    { id: 'members', label: 'Members' },
    { id: 'notifications', label: 'Notifications' },
    ...(flags.show_workspace_security ? [{ id: 'security' as const, label: 'Security' }] : []),
    ...(flags.show_workspace_telemetry ? [{ id: 'telemetry' as const, label: 'Telemetry' }] : []),
    ...(flags.show_workspace_integrations ? [{ id: 'integrations' as const, label: 'Integrations' }] : []),
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
  return (
    <>
      <PageHeader title="Workspace Settings" subtitle={data ? data.name : 'Name, members and notifications of this workspace'} />
      {workspace.isError && !data && <Alert severity="error">{errorMessage(workspace.error)}</Alert>}
      {!data && !workspace.isError && <Skeleton variant="rounded" height={280} aria-label="Loading workspace" />}
      {data && (
        <>
          <Tabs
            value={tab}
            onChange={(_, value: WorkspaceTab) => setParams({ tab: value })}
            variant="scrollable"
            allowScrollButtonsMobile
            aria-label="Workspace settings"
            sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
          >
            {tabs.map((t) => (
              <Tab key={t.id} value={t.id} label={t.label} id={`workspace-tab-${t.id}`} aria-controls={`workspace-panel-${t.id}`} />
            ))}
          </Tabs>
          <div role="tabpanel" id={`workspace-panel-${tab}`} aria-labelledby={`workspace-tab-${tab}`}>
            {tab === 'general' && <GeneralTab workspace={data} />}
            {tab === 'members' && <MembersPanel workspace={data} />}
            {tab === 'notifications' && <NotificationSettingsTab workspace={data} />}
            {(tab === 'security' || tab === 'telemetry' || tab === 'integrations') && (
              <Alert severity="info" icon={false}>
                <Typography variant="subtitle2">{tabs.find((t) => t.id === tab)?.label}</Typography>
                {UPCOMING[tab]}
              </Alert>
            )}
          </div>
        </>
      )}
    </>
  );
}
