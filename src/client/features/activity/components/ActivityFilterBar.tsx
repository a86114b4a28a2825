import { memo, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ServerDto } from '../../../../contract/servers';
import type { ToolCallStatus } from '../../../../contract/sessions';
import { ServerFilterSelect } from '../../../components/servers/ServerFilterSelect';
import type { ActivityFilters } from '../useActivityPolling';

const TOOL_DEBOUNCE_MS = 300;

interface ActivityFilterBarProps {
  filters: ActivityFilters;
  servers: ServerDto[];
  /** Tool names to suggest as the user types. */
  toolNames: string[];
  onChange: (next: ActivityFilters) => void;
}

/** Server, tool and status filters. Memoized so a burst of events does not re-render the inputs. */
export const ActivityFilterBar = memo(function ActivityFilterBar({
  filters,
  servers,
  toolNames,
  onChange,
}: ActivityFilterBarProps) {
  const [toolInput, setToolInput] = useState(filters.tool);
  useEffect(() => {
    const tool = toolInput.trim();
    if (tool === filters.tool) return undefined;
    const timer = setTimeout(() => onChange({ ...filters, tool }), TOOL_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [toolInput, filters, onChange]);

  return (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' }, mb: 2 }}>
      <ServerFilterSelect
        servers={servers}
        value={filters.serverId}
        onChange={(serverId) => onChange({ ...filters, serverId })}
      />
      {/* Any part of a name, in any case ("sum" finds get-sum), with the known names suggested. */}
      <Autocomplete
        freeSolo
        size="small"
        options={toolNames}
        inputValue={toolInput}
        onInputChange={(_event, value) => setToolInput(value)}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Tool"
            placeholder="Part of a tool name"
            slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, maxLength: 200 } }}
          />
        )}
      />
      <TextField
        select
        size="small"
        label="Status"
        value={filters.status}
        onChange={(e) => onChange({ ...filters, status: e.target.value as ToolCallStatus | '' })}
      >
        <MenuItem value="">Any status</MenuItem>
        <MenuItem value="ok">OK</MenuItem>
        <MenuItem value="error">Error</MenuItem>
        <MenuItem value="timeout">Timeout</MenuItem>
        <MenuItem value="cancelled">Cancelled</MenuItem>
        <MenuItem value="pending">Pending</MenuItem>
      </TextField>
    </Box>
  );
});
