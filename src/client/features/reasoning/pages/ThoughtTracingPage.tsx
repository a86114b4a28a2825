import PsychologyOutlinedIcon from '@mui/icons-material/PsychologyOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Tool Reasoning: the empty state shown until this feature's data exists. */
export default function ThoughtTracingPage() {
  return (
    <>
      <PageHeader title="Tool Reasoning" subtitle="Why an agent chose each tool, step by step" />
      <EmptyState
        icon={<PsychologyOutlinedIcon />}
        title="No reasoning traces yet"
        description="When a session has been recorded, its sequence of tool choices is laid out here as a trace, so you can follow how the agent moved from one call to the next."
        action={{ label: "View sessions", to: "/sessions" }} secondaryAction={{ label: "Connect a tool server", to: "/servers" }}
      />
    </>
  );
}
