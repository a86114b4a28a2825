import { useParams } from 'react-router-dom';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Workspace Settings: the empty state shown until this feature's data exists. */
export default function WorkspaceSettingsPage() {
  const { workspaceId = '' } = useParams();
  return (
    <PlaceholderPage
      title="Workspace Settings"
      subtitle="Name, type, keys and limits of this workspace"
      icon={<SettingsOutlinedIcon />}
      emptyTitle="Workspace settings"
      description={`The workspace's name and description, its API keys, telemetry export and plan limits will be managed here.`}
      action={{ label: "Manage members", to: "/members" }}
      secondaryAction={{ label: "Your account settings", to: "/settings" }}
    />
  );
}
