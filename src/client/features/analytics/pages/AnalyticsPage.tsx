import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Analytics: the empty state shown until this feature's data exists. */
export default function AnalyticsPage() {
  return (
    <PlaceholderPage
      title="Analytics"
      subtitle="Usage over time, by server and by tool"
      icon={<InsightsOutlinedIcon />}
      emptyTitle="Not enough data yet"
      description="Daily usage, the busiest tools, error rates and the agents behind them will be charted here once traffic flows through the proxy."
      action={{ label: "Connect a tool server", to: "/servers" }}
      secondaryAction={{ label: "View performance", to: "/performance" }}
    />
  );
}
