import { useEffect } from 'react';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import type { ServerDto } from '../../../../contract/servers';
import { ServerFilterSelect } from '../../../components/servers/ServerFilterSelect';
import { useEditedText } from '../../../components/useEditedCopy';
import { customRangeError, type ErrorsFilter, type SessionFilterState, type TimeRange } from '../sessionFilters';

/** Typing settles for this long before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

interface SessionFiltersProps {
  filters: SessionFilterState;
  servers: ServerDto[];
  onChange: (next: Partial<SessionFilterState>) => void;
}

const RANGE_LABELS: Record<TimeRange, string> = {
  all: 'Any time',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Custom range…',
};

/** An ISO time as a datetime-local field's value (the browser's local time, to the minute). */
function toLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A datetime-local value as ISO ('' stays ''; the field is in the browser's local time). */
function fromLocalInput(value: string): string {
  if (!value) return '';
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
}

export function SessionFilters({ filters, servers, onChange }: SessionFiltersProps) {
  // The boxes follow the URL when it changes (the debounced search landed, back button, a link).
  const [search, setSearch] = useEditedText(filters.q);
  const [client, setClient] = useEditedText(filters.client);

  useEffect(() => {
    if (search === filters.q && client === filters.client) return undefined;
    const timer = setTimeout(() => onChange({ q: search, client }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, client, filters.q, filters.client, onChange]);

  const rangeError = customRangeError(filters);
  return (
    <>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: '2fr 1fr 1fr 1fr 1fr 1fr' },
          mb: 2,
          '& > :first-of-type': { gridColumn: { xs: '1 / -1', md: 'auto' } },
        }}
      >
        <TextField
          size="small"
          label="Search tool calls, prompts and resources"
          placeholder="Tool, prompt or resource argument, e.g. read_file"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            htmlInput: { maxLength: 200 },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <ServerFilterSelect
          servers={servers}
          value={filters.serverId}
          onChange={(serverId) => onChange({ serverId })}
        />
        <TextField
          size="small"
          label="Client"
          placeholder="e.g. claude"
          value={client}
          onChange={(e) => setClient(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <TextField
          select
          size="small"
          label="Status"
          value={filters.status}
          onChange={(e) => onChange({ status: e.target.value as SessionFilterState['status'] })}
        >
          <MenuItem value="">Any status</MenuItem>
          <MenuItem value="active">Active</MenuItem>
          <MenuItem value="ended">Ended</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Errors"
          value={filters.errors}
          onChange={(e) => onChange({ errors: e.target.value as ErrorsFilter })}
        >
          <MenuItem value="">With or without errors</MenuItem>
          <MenuItem value="with">With errors</MenuItem>
          <MenuItem value="without">Without errors</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Started"
          value={filters.range}
          onChange={(e) => onChange({ range: e.target.value as TimeRange })}
        >
          {(Object.keys(RANGE_LABELS) as TimeRange[]).map((range) => (
            <MenuItem key={range} value={range}>
              {RANGE_LABELS[range]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {filters.range === 'custom' && (
        <Box
          role="group"
          aria-label="Custom range"
          sx={{
            display: 'grid',
            gap: 1.5,
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' },
            mb: 2,
          }}
        >
          <TextField
            size="small"
            type="datetime-local"
            label="Started from"
            value={toLocalInput(filters.from)}
            onChange={(e) => onChange({ from: fromLocalInput(e.target.value) })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="datetime-local"
            label="Started until"
            value={toLocalInput(filters.to)}
            onChange={(e) => onChange({ to: fromLocalInput(e.target.value) })}
            error={rangeError !== null}
            helperText={rangeError ?? ' '}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Box>
      )}
    </>
  );
}
