import type { AnalyticsToolsResult } from '../../../../contract/analytics';
import { formatCount, formatMs, formatPercent } from '../../../components/analytics/format';
import { RankedTools, type RankedToolColumn } from './RankedTools';

type CalledTool = AnalyticsToolsResult['tools'][number];

const COLUMNS: RankedToolColumn<CalledTool>[] = [
  { label: 'Calls', value: (tool) => formatCount(tool.calls) },
  { label: 'Errors', value: (tool) => formatPercent(tool.errorRate) },
  { label: 'p95', value: (tool) => formatMs(tool.p95Ms) },
];

/** The most called tools of the range; a tool's name filters the screen to it. */
export function TopTools({
  tools,
  onTool,
}: {
  tools: CalledTool[] | undefined;
  onTool: (tool: string, serverId: string) => void;
}) {
  return (
    <RankedTools
      title="Top tools"
      subtitle="Most called in the range"
      height={240}
      tools={tools}
      shown={8}
      columns={COLUMNS}
      noneText="No tool was called in this range."
      onTool={onTool}
    />
  );
}
