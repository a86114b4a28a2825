import StreamOutlinedIcon from '@mui/icons-material/StreamOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Activity Stream: the empty state shown until this feature's data exists. */
export default function ActivityStreamPage() {
  return (
    <>
      <PageHeader title="Activity Stream" subtitle="Tool calls as they happen, across every server of the workspace" />
      <EmptyState
        icon={<StreamOutlinedIcon />}
        title="Waiting for activity"
        description="Tool calls stream in here live as agents use your servers: the tool, its arguments, the outcome and how long it took."
        action={{ label: "Connect a tool server", to: "/servers" }} secondaryAction={{ label: "View sessions", to: "/sessions" }}
      />
    </>
  );
}
