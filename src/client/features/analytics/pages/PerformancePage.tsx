import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Performance: the empty state shown until this feature's data exists. */
export default function PerformancePage() {
  return (
    <PlaceholderPage
      title="Performance"
      subtitle="Latency and reliability of every tool"
      icon={<SpeedOutlinedIcon />}
      emptyTitle="No performance data yet"
      description="Latency percentiles (p50, p95, p99), throughput and error rates per server and tool will be shown here as calls are recorded."
      action={{ label: "Connect a tool server", to: "/servers" }}
      secondaryAction={{ label: "Open analytics", to: "/analytics" }}
    />
  );
}
