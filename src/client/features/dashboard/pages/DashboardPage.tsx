import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Overview: the empty state shown until this feature's data exists. */
export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Overview" subtitle="Your workspace at a glance" />
      <EmptyState
        icon={<DashboardOutlinedIcon />}
        title="No agent traffic yet"
        description="Once an agent talks to a tool server through its Toolscope proxy URL, this overview shows live sessions, tool calls per minute, error rate, latency and cost for the workspace."
        action={{ label: "Connect a tool server", to: "/servers" }} secondaryAction={{ label: "View sessions", to: "/sessions" }}
      />
    </>
  );
}
