import type { PerformanceSummaryResult } from '../../../../contract/analytics';
import { formatCount, formatMs, formatPercent } from '../../../components/analytics/format';
import { RankedTools, type RankedToolColumn } from './RankedTools';

type PerformanceTool = PerformanceSummaryResult['tools'][number];

const COLUMNS: RankedToolColumn<PerformanceTool>[] = [
  { label: 'Calls', value: (tool) => formatCount(tool.calls) },
  { label: 'p50', value: (tool) => formatMs(tool.p50Ms) },
  { label: 'p95', value: (tool) => formatMs(tool.p95Ms) },
  { label: 'p99', value: (tool) => formatMs(tool.p99Ms) },
  { label: 'Max', value: (tool) => formatMs(tool.maxMs) },
  { label: 'Errors', value: (tool) => formatPercent(tool.errorRate) },
];

/** Tools by p95, slowest first, with p50/p95/p99 and the slowest call. */
export function SlowestTools({
  tools,
  onTool,
}: {
  tools: PerformanceTool[] | undefined;
  onTool: (tool: string, serverId: string) => void;
}) {
  return (
    <RankedTools
      title="Slowest tools"
      subtitle="By p95 latency"
      height={260}
      tools={tools}
      shown={12}
      columns={COLUMNS}
      onTool={onTool}
    />
  );
}
