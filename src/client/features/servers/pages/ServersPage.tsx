import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Tool Servers: the empty state shown until this feature's data exists. */
export default function ServersPage() {
  return (
    <>
      <PageHeader title="Tool Servers" subtitle="Register your MCP tool servers and point agents at their proxy URLs" />
      <EmptyState
        icon={<DnsOutlinedIcon />}
        title="No tool servers yet"
        description="Each tool server you register gets a proxy URL. Point an agent at it and every session, message and tool call is traced, with the server's live status and schemas shown here."
        action={{ label: "Browse the marketplace", to: "/marketplace" }} secondaryAction={{ label: "Open the overview", to: "/dashboard" }}
      />
    </>
  );
}
