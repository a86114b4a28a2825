import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Sessions: the empty state shown until this feature's data exists. */
export default function SessionsPage() {
  return (
    <>
      <PageHeader title="Sessions" subtitle="Every agent connection through the proxy, newest first" />
      <EmptyState
        icon={<ForumOutlinedIcon />}
        title="No sessions recorded"
        description="A session starts when an agent connects through a proxy URL. Its messages, tool calls, duration and errors will be listed here, each with a full replay."
        action={{ label: "Connect a tool server", to: "/servers" }} secondaryAction={{ label: "Watch the activity stream", to: "/activity-stream" }}
      />
    </>
  );
}
