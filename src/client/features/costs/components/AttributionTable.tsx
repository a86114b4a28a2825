import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatCount, formatUsd } from '../../../components/analytics/format';
import { DIMENSION_LABELS, type AttributionRow, type Dimension } from '../attributionRows';
import { TableScroll } from '../../../components/TableScroll';

/** The attribution rows as shown (and as exported). */
export function AttributionTable({
  rows,
  dimension,
  onDrill,
}: {
  rows: AttributionRow[];
  dimension: Dimension;
  onDrill?: (row: AttributionRow) => void;
}) {
  if (rows.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        Nothing was spent in this range with these filters.
      </Typography>
    );
  }
  const showServer = dimension !== 'server';
  return (
    <TableScroll label="Cost attribution">
      <Table size="small" aria-label="Cost attribution">
        <TableHead>
          <TableRow>
            <TableCell>{DIMENSION_LABELS[dimension]}</TableCell>
            {showServer && <TableCell>Server</TableCell>}
            <TableCell align="right">Calls</TableCell>
            <TableCell align="right">Tokens</TableCell>
            <TableCell align="right">Cost</TableCell>
            <TableCell sx={{ width: 160 }}>Share</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow
              key={row.id}
              data-testid="attribution-row"
              // The whole row drills down, as the caption says; the name stays the keyboard's way in.
              hover={Boolean(onDrill)}
              onClick={onDrill ? () => onDrill(row) : undefined}
              sx={onDrill ? { cursor: 'pointer' } : undefined}
            >
              <TableCell>
                {onDrill ? (
                  <Link
                    component="button"
                    variant="body2"
                    onClick={(event) => {
                      event.stopPropagation();
                      onDrill(row);
                    }}
                  >
                    {row.name}
                  </Link>
                ) : (
                  row.name
                )}
              </TableCell>
              {showServer && <TableCell>{row.serverName ?? '—'}</TableCell>}
              <TableCell align="right">{formatCount(row.calls)}</TableCell>
              <TableCell align="right">{formatCount(row.tokens)}</TableCell>
              <TableCell align="right">{formatUsd(row.cost)}</TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <LinearProgress
                    variant="determinate"
                    aria-label={`${row.name}: share of the cost`}
                    value={row.share * 100}
                    sx={{ flex: 1, height: 6, borderRadius: 3 }}
                  />
                  <Typography variant="caption" sx={{ width: 44, textAlign: 'right' }}>
                    {(row.share * 100).toFixed(1)}%
                  </Typography>
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableScroll>
  );
}
