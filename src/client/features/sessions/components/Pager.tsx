import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  pageSizes: readonly number[];
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}

/** "51–100 of 100,000" with previous/next: the server pages, the client only asks. */
export function Pager({ page, pageSize, total, pageSizes, onPage, onPageSize }: PagerProps) {
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
  return (
    <Box
      component="nav"
      aria-label="Pages"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1.5, mt: 1.5, flexWrap: 'wrap' }}
    >
      <TextField
        select
        size="small"
        label="Per page"
        value={pageSize}
        onChange={(e) => onPageSize(Number(e.target.value))}
        sx={{ width: 110 }}
      >
        {pageSizes.map((size) => (
          <MenuItem key={size} value={size}>
            {size}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {`${first.toLocaleString()}–${last.toLocaleString()} of ${total.toLocaleString()}`}
      </Typography>
      <Button size="small" variant="outlined" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Button size="small" variant="outlined" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </Box>
  );
}
