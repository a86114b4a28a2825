import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import type { ServerDto } from '../../../../contract/servers';
import { ServerFilterSelect } from '../../servers/components/ServerFilterSelect';
import type { SessionFilterState, TimeRange } from '../sessionFilters';

/** Typing settles for this long before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

interface SessionFiltersProps {
  filters: SessionFilterState;
  servers: ServerDto[];
  onChange: (next: Partial<SessionFilterState>) => void;
}

const RANGE_LABELS: Record<TimeRange, string> = { all: 'Any time', '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };

export function SessionFilters({ filters, servers, onChange }: SessionFiltersProps) {
  const [search, setSearch] = useState(filters.q);
  const [client, setClient] = useState(filters.client);

  // Keep the boxes in step when the URL changes from outside (back button, a link).
  useEffect(() => setSearch(filters.q), [filters.q]);
  useEffect(() => setClient(filters.client), [filters.client]);

  useEffect(() => {
    if (search === filters.q && client === filters.client) return undefined;
    const timer = setTimeout(() => onChange({ q: search, client }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, client, filters.q, filters.client, onChange]);

  return (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr 1fr 1fr' }, mb: 2 }}>
      <TextField
        size="small"
        label="Search tool calls"
        placeholder="Tool name or argument, e.g. read_file"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 200 }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
      />
      <ServerFilterSelect servers={servers} value={filters.serverId} onChange={(serverId) => onChange({ serverId })} />
      <TextField size="small" label="Client" placeholder="e.g. claude" value={client} onChange={(e) => setClient(e.target.value)} slotProps={{ htmlInput: { maxLength: 200 } }} />
      <TextField select size="small" label="Status" value={filters.status} onChange={(e) => onChange({ status: e.target.value as SessionFilterState['status'] })}>
        <MenuItem value="">Any status</MenuItem>
        <MenuItem value="active">Active</MenuItem>
        <MenuItem value="ended">Ended</MenuItem>
      </TextField>
      <TextField select size="small" label="Started" value={filters.range} onChange={(e) => onChange({ range: e.target.value as TimeRange })}>
        {(Object.keys(RANGE_LABELS) as TimeRange[]).map((range) => (
          <MenuItem key={range} value={range}>
            {RANGE_LABELS[range]}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
