import PieChartOutlineIcon from '@mui/icons-material/PieChartOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Cost Attribution: the empty state shown until this feature's data exists. */
export default function CostAttributionPage() {
  return (
    <>
      <PageHeader title="Cost Attribution" subtitle="Which servers, tools and sessions the spend comes from" />
      <EmptyState
        icon={<PieChartOutlineIcon />}
        title="Nothing to attribute yet"
        description="Spend will be broken down here by server, tool and session so you can see where the budget goes."
        action={{ label: "Connect a tool server", to: "/servers" }} secondaryAction={{ label: "Open cost analytics", to: "/cost-analytics" }}
      />
    </>
  );
}
