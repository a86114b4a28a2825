import { useParams } from 'react-router-dom';
import ReplayOutlinedIcon from '@mui/icons-material/ReplayOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Session: the empty state shown until this feature's data exists. */
export default function SessionDetailPage() {
  const { sessionId = '' } = useParams();
  return (
    <>
      <PageHeader title="Session" subtitle="The replay of one agent session" />
      <EmptyState
        icon={<ReplayOutlinedIcon />}
        title="Session replay"
        description={`This page will replay session ${sessionId} message by message: each JSON-RPC request, its response, the tool calls and their timings.`}
        action={{ label: "Back to sessions", to: "/sessions" }}
      />
    </>
  );
}
