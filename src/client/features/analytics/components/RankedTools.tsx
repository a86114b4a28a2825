import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { TableScroll } from '../../../components/TableScroll';

/** A tool of a ranking: its name filters the screen to it (on its server). */
export interface RankedTool {
  tool: string;
  serverId: string;
  serverName: string;
}

/** A number column after Tool and Server, right-aligned. */
export interface RankedToolColumn<T> {
  label: string;
  value: (tool: T) => string;
}

interface RankedToolsProps<T extends RankedTool> {
  /** The card's title, and the table's accessible name. */
  title: string;
  subtitle: string;
  height: number;
  /** Already in rank order; undefined while loading. */
  tools: T[] | undefined;
  /** How many of the first are shown. */
  shown: number;
  columns: RankedToolColumn<T>[];
  /** Said instead of an empty table when the range has no tool; without it the table stays, empty. */
  noneText?: string;
  onTool: (tool: string, serverId: string) => void;
}

/** A card with the range's first tools by some measure, as a table: tool, server and the numbers. */
export function RankedTools<T extends RankedTool>({
  title,
  subtitle,
  height,
  tools,
  shown,
  columns,
  noneText,
  onTool,
}: RankedToolsProps<T>) {
  return (
    <ChartCard title={title} subtitle={subtitle} loading={!tools} height={height}>
      {noneText && tools && tools.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {noneText}
        </Typography>
      ) : (
        <TableScroll label={title}>
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>Tool</TableCell>
                <TableCell>Server</TableCell>
                {columns.map((column) => (
                  <TableCell key={column.label} align="right">
                    {column.label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(tools ?? []).slice(0, shown).map((tool) => (
                <TableRow key={`${tool.serverId}/${tool.tool}`}>
                  <TableCell>
                    <Link component="button" variant="body2" onClick={() => onTool(tool.tool, tool.serverId)}>
                      {tool.tool}
                    </Link>
                  </TableCell>
                  <TableCell>{tool.serverName}</TableCell>
                  {columns.map((column) => (
                    <TableCell key={column.label} align="right">
                      {column.value(tool)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableScroll>
      )}
    </ChartCard>
  );
}
