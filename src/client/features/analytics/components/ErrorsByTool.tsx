import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import type { PerformanceSummaryResult } from '../../../../contract/analytics';
import { ChartCard } from '../../../components/analytics/ChartCard';

const SHOWN = 8;

/**
 * Failed calls per tool by class, as the OpenTelemetry MCP conventions separate them: protocol
 * errors (JSON-RPC −32700/−32600/−32601/−32602: the request was wrong), server failures (other
 * JSON-RPC errors, no answer) and tool errors (a result flagged isError).
 */
export function ErrorsByTool({ tools }: { tools: PerformanceSummaryResult['tools'] | undefined }) {
  const failing = (tools ?? [])
    .filter((tool) => tool.errors > 0)
    .sort((a, b) => b.errors - a.errors)
    .slice(0, SHOWN);
  return (
    <ChartCard
      title="Errors by class and tool"
      subtitle="Protocol (−32700…−32602), server failures, tool results flagged isError"
      loading={!tools}
      height={260}
    >
      {failing.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No failed calls in this range.
        </Typography>
      ) : (
        <BarChart
          height={Math.max(160, failing.length * 40 + 60)}
          layout="horizontal"
          yAxis={[{ scaleType: 'band', data: failing.map((tool) => tool.tool), width: 120 }]}
          series={[
            {
              data: failing.map((tool) => tool.errorsByClass.protocol),
              label: 'Protocol',
              stack: 'errors',
              color: '#fbbf24',
            },
            {
              data: failing.map((tool) => tool.errorsByClass.server),
              label: 'Server',
              stack: 'errors',
              color: '#f87171',
            },
            {
              data: failing.map((tool) => tool.errorsByClass.tool),
              label: 'Tool (isError)',
              stack: 'errors',
              color: '#a78bfa',
            },
          ]}
          margin={{ left: 8, right: 16 }}
        />
      )}
    </ChartCard>
  );
}
