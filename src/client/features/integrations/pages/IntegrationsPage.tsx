import ExtensionOutlinedIcon from '@mui/icons-material/ExtensionOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Integrations: the empty state shown until this feature's data exists. */
export default function IntegrationsPage() {
  return (
    <>
      <PageHeader title="Integrations" subtitle="Send Toolscope's alerts and data to the tools your team uses" />
      <EmptyState
        icon={<ExtensionOutlinedIcon />}
        title="No integrations configured"
        description="Connect chat, incident and observability tools here; each integration can be tested and shows its recent deliveries."
        action={{ label: "Open workspace settings", to: "/settings" }}
      />
    </>
  );
}
