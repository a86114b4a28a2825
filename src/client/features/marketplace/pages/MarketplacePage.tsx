import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Marketplace: the empty state shown until this feature's data exists. */
export default function MarketplacePage() {
  return (
    <PlaceholderPage
      title="Marketplace"
      subtitle="Ready-made tool servers you can connect in a few clicks"
      icon={<StorefrontOutlinedIcon />}
      emptyTitle="The marketplace is empty"
      description="Curated MCP tool servers will be listed here with what they do and how to connect them to this workspace."
      action={{ label: "Connect your own server", to: "/servers" }}
    />
  );
}
