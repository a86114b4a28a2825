import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import type { SessionSort, SortOrder } from '../../../../contract/sessions';

/**
 * The sort of the sessions list on a phone, where the sortable column headers are not shown
 * (issue 38): a column picker and a button that reverses the order, the same `onSort` as a header.
 */
export function SessionSortSelect({
  columns,
  sort,
  order,
  onSort,
}: {
  columns: { column: SessionSort; label: string }[];
  sort: SessionSort;
  order: SortOrder;
  onSort: (column: SessionSort) => void;
}) {
  const reverse = order === 'desc' ? 'Lowest first' : 'Highest first';
  return (
    <Box sx={{ display: { xs: 'flex', md: 'none' }, gap: 1, alignItems: 'center', px: 2, pt: 1.5, pb: 0.5 }}>
      <TextField
        select
        size="small"
        label="Sort by"
        value={sort}
        onChange={(event) => {
          const column = event.target.value as SessionSort;
          if (column !== sort) onSort(column);
        }}
        sx={{ flex: 1 }}
      >
        {columns.map(({ column, label }) => (
          <MenuItem key={column} value={column}>
            {label}
          </MenuItem>
        ))}
      </TextField>
      <Tooltip title={reverse}>
        <IconButton
          aria-label={`${reverse} (now ${order === 'desc' ? 'highest' : 'lowest'} first)`}
          onClick={() => onSort(sort)}
        >
          {order === 'desc' ? <ArrowDownwardIcon /> : <ArrowUpwardIcon />}
        </IconButton>
      </Tooltip>
    </Box>
  );
}
