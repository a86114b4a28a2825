import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { AnalyticsRange } from '../../../contract/analytics';
import { CustomRangeButton } from './CustomRangeButton';
import { TimeRangePicker } from './TimeRangePicker';
import { useAnalyticsRange, type AnalyticsFilters } from './useAnalyticsRange';

/** The range picker and the active filters (each removable) of an analytics screen. */
export function AnalyticsToolbar({
  range,
  onRange,
  filters,
  onFilters,
  serverName,
}: {
  range: AnalyticsRange;
  onRange: (range: AnalyticsRange) => void;
  filters: AnalyticsFilters;
  onFilters: (next: AnalyticsFilters) => void;
  serverName?: (id: string) => string;
}) {
  // The custom range lives in the same URL as the preset: read and set here, so every screen has it.
  const { custom, setCustomRange } = useAnalyticsRange();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      {filters.serverId && (
        <Chip
          size="small"
          label={`Server: ${serverName?.(filters.serverId) ?? filters.serverId}`}
          onDelete={() => onFilters({ serverId: undefined })}
        />
      )}
      {filters.tool && (
        <Chip size="small" label={`Tool: ${filters.tool}`} onDelete={() => onFilters({ tool: undefined })} />
      )}
      {filters.keyId && (
        <Chip
          size="small"
          label={`Platform key: ${filters.keyId === 'none' ? 'none' : filters.keyId.slice(0, 8)}`}
          onDelete={() => onFilters({ keyId: undefined })}
        />
      )}
      {filters.client && (
        <Chip size="small" label={`Client: ${filters.client}`} onDelete={() => onFilters({ client: undefined })} />
      )}
      <TimeRangePicker value={custom ? null : range} onChange={onRange} />
      <CustomRangeButton value={custom} onApply={setCustomRange} />
    </Box>
  );
}
