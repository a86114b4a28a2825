import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Performance: the empty state shown until this feature's data exists. */
export default function PerformancePage() {
  return (
    <>
      <PageHeader title="Performance" subtitle="Latency and reliability of every tool" />
      <EmptyState
        icon={<SpeedOutlinedIcon />}
        title="No performance data yet"
        description="Latency percentiles (p50, p95, p99), throughput and error rates per server and tool will be shown here as calls are recorded."
        action={{ label: "Connect a tool server", to: "/servers" }} secondaryAction={{ label: "Open analytics", to: "/analytics" }}
      />
    </>
  );
}
