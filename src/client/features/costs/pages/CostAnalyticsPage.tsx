import PaidOutlinedIcon from '@mui/icons-material/PaidOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Cost Analytics: the empty state shown until this feature's data exists. */
export default function CostAnalyticsPage() {
  return (
    <>
      <PageHeader title="Cost Analytics" subtitle="What your agents' tool traffic costs" />
      <EmptyState
        icon={<PaidOutlinedIcon />}
        title="No cost data yet"
        description="Token usage and spend per day, per server and per tool will be totalled here from the recorded sessions."
        action={{ label: "Connect a tool server", to: "/servers" }} secondaryAction={{ label: "See cost attribution", to: "/cost-attribution" }}
      />
    </>
  );
}
