import { useParams } from 'react-router-dom';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Workspace Settings: the empty state shown until this feature's data exists. */
export default function WorkspaceSettingsPage() {
  const { workspaceId = '' } = useParams();
  return (
    <>
      <PageHeader title="Workspace Settings" subtitle="Name, type, keys and limits of this workspace" />
      <EmptyState
        icon={<SettingsOutlinedIcon />}
        title="Workspace settings"
        description={`The workspace's name and description, its API keys, telemetry export and plan limits will be managed here.`}
        action={{ label: "Manage members", to: "/members" }} secondaryAction={{ label: "Your account settings", to: "/settings" }}
      />
    </>
  );
}
