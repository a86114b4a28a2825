import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AnalyticsCostsResult } from '../../../../contract/analytics';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { formatCount, formatUsd } from '../../../components/analytics/format';
import { TableScroll } from '../../../components/TableScroll';

const UNUSED_SHOWN = 12;

/** Per server: what its tool definitions add to every turn, and the tools listed but never called in the range. */
export function ContextWeight({ weights }: { weights: AnalyticsCostsResult['contextWeight'] | undefined }) {
  return (
    <ChartCard
      title="Context weight"
      subtitle="Tokens each server's tool definitions add to every model turn; unused tools are candidates to prune"
      loading={!weights}
      height={160}
    >
      {weights && weights.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No tool list has been seen yet: it is measured when an agent asks a server for its tools.
        </Typography>
      ) : (
        <TableScroll label="Context weight">
          <Table size="small" aria-label="Context weight">
            <TableHead>
              <TableRow>
                <TableCell>Server</TableCell>
                <TableCell align="right">Definition tokens</TableCell>
                <TableCell align="right">Per turn</TableCell>
                <TableCell>Listed but not called in the range</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(weights ?? []).map((weight) => (
                <TableRow key={weight.serverId}>
                  <TableCell>{weight.serverName}</TableCell>
                  <TableCell align="right">{formatCount(weight.definitionTokens)}</TableCell>
                  <TableCell align="right">{formatUsd(weight.costPerTurn)}</TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {weight.unusedTools.length === 0 && (
                        <Typography variant="caption" color="text.secondary">
                          Every listed tool was called
                        </Typography>
                      )}
                      {weight.unusedTools.slice(0, UNUSED_SHOWN).map((tool) => (
                        <Chip
                          key={tool.name}
                          size="small"
                          variant="outlined"
                          label={`${tool.name} · ${formatCount(tool.definitionTokens)} tok`}
                        />
                      ))}
                      {weight.unusedTools.length > UNUSED_SHOWN && (
                        <Chip size="small" label={`+${weight.unusedTools.length - UNUSED_SHOWN} more`} />
                      )}
                    </Box>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableScroll>
      )}
    </ChartCard>
  );
}
