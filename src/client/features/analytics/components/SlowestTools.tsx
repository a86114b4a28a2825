import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { PerformanceSummaryResult } from '../../../../contract/analytics';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { formatCount, formatMs, formatPercent } from '../../../components/analytics/format';
import { TableScroll } from '../../../components/TableScroll';

const SHOWN = 12;

/** Tools by p95, slowest first, with p50/p95/p99 and the slowest call. */
export function SlowestTools({
  tools,
  onTool,
}: {
  tools: PerformanceSummaryResult['tools'] | undefined;
  onTool: (tool: string, serverId: string) => void;
}) {
  return (
    <ChartCard title="Slowest tools" subtitle="By p95 latency" loading={!tools} height={260}>
      <TableScroll label="Slowest tools">
        <Table size="small" aria-label="Slowest tools">
          <TableHead>
            <TableRow>
              <TableCell>Tool</TableCell>
              <TableCell>Server</TableCell>
              <TableCell align="right">Calls</TableCell>
              <TableCell align="right">p50</TableCell>
              <TableCell align="right">p95</TableCell>
              <TableCell align="right">p99</TableCell>
              <TableCell align="right">Max</TableCell>
              <TableCell align="right">Errors</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(tools ?? []).slice(0, SHOWN).map((tool) => (
              <TableRow key={`${tool.serverId}/${tool.tool}`}>
                <TableCell>
                  <Link component="button" variant="body2" onClick={() => onTool(tool.tool, tool.serverId)}>
                    {tool.tool}
                  </Link>
                </TableCell>
                <TableCell>{tool.serverName}</TableCell>
                <TableCell align="right">{formatCount(tool.calls)}</TableCell>
                <TableCell align="right">{formatMs(tool.p50Ms)}</TableCell>
                <TableCell align="right">{formatMs(tool.p95Ms)}</TableCell>
                <TableCell align="right">{formatMs(tool.p99Ms)}</TableCell>
                <TableCell align="right">{formatMs(tool.maxMs)}</TableCell>
                <TableCell align="right">{formatPercent(tool.errorRate)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableScroll>
    </ChartCard>
  );
}
