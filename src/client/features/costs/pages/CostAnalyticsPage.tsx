import PaidOutlinedIcon from '@mui/icons-material/PaidOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Cost Analytics: the empty state shown until this feature's data exists. */
export default function CostAnalyticsPage() {
  return (
    <PlaceholderPage
      title="Cost Analytics"
      subtitle="What your agents' tool traffic costs"
      icon={<PaidOutlinedIcon />}
      emptyTitle="No cost data yet"
      description="Token usage and spend per day, per server and per tool will be totalled here from the recorded sessions."
      action={{ label: "Connect a tool server", to: "/servers" }}
      secondaryAction={{ label: "See cost attribution", to: "/cost-attribution" }}
    />
  );
}
