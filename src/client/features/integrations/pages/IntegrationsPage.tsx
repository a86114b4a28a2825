import ExtensionOutlinedIcon from '@mui/icons-material/ExtensionOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Integrations: the empty state shown until this feature's data exists. */
export default function IntegrationsPage() {
  return (
    <PlaceholderPage
      title="Integrations"
      subtitle="Send Toolscope's alerts and data to the tools your team uses"
      icon={<ExtensionOutlinedIcon />}
      emptyTitle="No integrations configured"
      description="Connect chat, incident and observability tools here; each integration can be tested and shows its recent deliveries."
      action={{ label: "Open workspace settings", to: "/settings" }}
    />
  );
}
