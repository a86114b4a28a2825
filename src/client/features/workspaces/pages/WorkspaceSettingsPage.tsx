import { useState } from 'react';
import { useParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';
import { PageHeader } from '../../../components/PageHeader';
import { useAppSelector } from '../../../app/hooks';
import { useFlag } from '../../flags/useFlag';
import { selectCurrentUser } from '../../auth/authSlice';
import { WorkspaceSecurityTab } from '../../keys';
import { useGetWorkspacesQuery } from '../workspacesApi';

// Workspace Settings. The general settings belong to the settings work (issue 20); this page
// holds the tabs that exist so far: Security (flag show_workspace_security, the keys feature).
export default function WorkspaceSettingsPage() {
  const { workspaceId = '' } = useParams();
  const user = useAppSelector(selectCurrentUser);
  const workspaces = useGetWorkspacesQuery(undefined, { skip: !user });
  const workspace = workspaces.data?.find((w) => w.id === workspaceId);
  const showSecurity = useFlag('show_workspace_security');
  const [tab, setTab] = useState<'general' | 'security'>('general');
  const general = (
    <PlaceholderPage
      title="Workspace Settings"
      subtitle="Name, type, keys and limits of this workspace"
      icon={<SettingsOutlinedIcon />}
      emptyTitle="Workspace settings"
      description={`The workspace's name and description, its telemetry export and plan limits will be managed here.`}
      action={{ label: 'Manage members', to: '/members' }}
      secondaryAction={{ label: 'Your account settings', to: '/settings' }}
    />
  );
  if (!showSecurity) return general;
  return (
    <Box>
      <Tabs value={tab} onChange={(_e, value: typeof tab) => setTab(value)} aria-label="Workspace settings" sx={{ mb: 2 }}>
        <Tab value="general" label="General" />
        <Tab value="security" label="Security" />
      </Tabs>
      {tab === 'general' && general}
      {tab === 'security' && (
        <Box>
          <PageHeader title="Security" subtitle={workspace?.name ?? ''} />
          {workspace && <WorkspaceSecurityTab workspace={workspace} />}
        </Box>
      )}
    </Box>
  );
}
