import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AnalyticsToolsResult } from '../../../../contract/analytics';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { formatCount, formatMs, formatPercent } from '../../../components/analytics/format';
import { TableScroll } from '../../../components/TableScroll';

const SHOWN = 8;

/** The most called tools of the range; a tool's name filters the screen to it. */
export function TopTools({
  tools,
  onTool,
}: {
  tools: AnalyticsToolsResult['tools'] | undefined;
  onTool: (tool: string, serverId: string) => void;
}) {
  return (
    <ChartCard title="Top tools" subtitle="Most called in the range" loading={!tools} height={240}>
      {tools && tools.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No tool was called in this range.
        </Typography>
      ) : (
        <TableScroll label="Top tools">
          <Table size="small" aria-label="Top tools">
            <TableHead>
              <TableRow>
                <TableCell>Tool</TableCell>
                <TableCell>Server</TableCell>
                <TableCell align="right">Calls</TableCell>
                <TableCell align="right">Errors</TableCell>
                <TableCell align="right">p95</TableCell>
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
                  <TableCell align="right">{formatPercent(tool.errorRate)}</TableCell>
                  <TableCell align="right">{formatMs(tool.p95Ms)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableScroll>
      )}
    </ChartCard>
  );
}
