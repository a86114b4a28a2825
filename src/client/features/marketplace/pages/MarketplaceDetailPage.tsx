import { useParams } from 'react-router-dom';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Marketplace: the empty state shown until this feature's data exists. */
export default function MarketplaceDetailPage() {
  const { slug = '' } = useParams();
  return (
    <PlaceholderPage
      title="Marketplace"
      subtitle="A tool server from the marketplace"
      icon={<StorefrontOutlinedIcon />}
      emptyTitle="Listing not available"
      description={`The details of “${slug}” — its tools, setup steps and how to connect it — will be shown here.`}
      action={{ label: "Back to the marketplace", to: "/marketplace" }}
    />
  );
}
