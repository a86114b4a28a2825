import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Marketplace: the empty state shown until this feature's data exists. */
export default function MarketplacePage() {
  return (
    <>
      <PageHeader title="Marketplace" subtitle="Ready-made tool servers you can connect in a few clicks" />
      <EmptyState
        icon={<StorefrontOutlinedIcon />}
        title="The marketplace is empty"
        description="Curated MCP tool servers will be listed here with what they do and how to connect them to this workspace."
        action={{ label: "Connect your own server", to: "/servers" }}
      />
    </>
  );
}
