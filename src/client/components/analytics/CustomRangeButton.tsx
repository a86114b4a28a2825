import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAX_CUSTOM_RANGE_DAYS } from '../../../contract/analytics';
import { formatDateTime } from '../dates/dateDisplay';

/** "2026-11-28T17:23" for a datetime-local input, in the browser's own time (what that input speaks). */
function localInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A range of the user's own (issue 38), beside the presets: from and to in a popover, applied to
 * the URL as `from`/`to`. The server refuses what it cannot answer (a range over 400 days).
 */
export function CustomRangeButton({
  value,
  onApply,
}: {
  value: { from: string; to: string } | null;
  onApply: (range: { from: string; to: string }) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  const problem = !from || !to ? 'Choose both ends' : fromMs >= toMs ? 'The end must be after the start' : null;
  const open = (target: HTMLElement) => {
    const now = Date.now();
    setFrom(localInput(value?.from ?? new Date(now - 3_600_000).toISOString()));
    setTo(localInput(value?.to ?? new Date(now).toISOString()));
    setAnchor(target);
  };
  return (
    <>
      <Button
        size="small"
        variant={value ? 'contained' : 'outlined'}
        aria-pressed={Boolean(value)}
        onClick={(event) => open(event.currentTarget)}
      >
        {value ? `${formatDateTime(value.from)} – ${formatDateTime(value.to)}` : 'Custom'}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box role="group" aria-label="Custom range" sx={{ p: 2, display: 'grid', gap: 1.5, width: 280 }}>
          <TextField
            size="small"
            type="datetime-local"
            label="From"
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="datetime-local"
            label="To"
            value={to}
            onChange={(event) => setTo(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Typography variant="caption" color={problem ? 'error' : 'text.secondary'}>
            {problem ?? `In this browser's time; at most ${MAX_CUSTOM_RANGE_DAYS} days.`}
          </Typography>
          <Button
            variant="contained"
            disabled={problem !== null}
            onClick={() => {
              onApply({ from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() });
              setAnchor(null);
            }}
          >
            Apply
          </Button>
        </Box>
      </Popover>
    </>
  );
}
