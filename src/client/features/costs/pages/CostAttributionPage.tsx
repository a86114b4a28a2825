import PieChartOutlineIcon from '@mui/icons-material/PieChartOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Cost Attribution: the empty state shown until this feature's data exists. */
export default function CostAttributionPage() {
  return (
    <PlaceholderPage
      title="Cost Attribution"
      subtitle="Which servers, tools and sessions the spend comes from"
      icon={<PieChartOutlineIcon />}
      emptyTitle="Nothing to attribute yet"
      description="Spend will be broken down here by server, tool and session so you can see where the budget goes."
      action={{ label: "Connect a tool server", to: "/servers" }}
      secondaryAction={{ label: "Open cost analytics", to: "/cost-analytics" }}
    />
  );
}
