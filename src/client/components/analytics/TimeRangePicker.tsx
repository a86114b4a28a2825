import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { ANALYTICS_RANGES, type AnalyticsRange } from '../../../contract/analytics';

const LABELS: Record<AnalyticsRange, string> = {
  '1h': '1 hour',
  '6h': '6 hours',
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
};

/** The one range picker of the analytics screens (its value lives in the URL: useAnalyticsRange). */
export function TimeRangePicker({
  value,
  onChange,
}: {
  /** null while a custom range is shown (no preset pressed). */
  value: AnalyticsRange | null;
  onChange: (range: AnalyticsRange) => void;
}) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      aria-label="Time range"
      onChange={(_event, next: AnalyticsRange | null) => {
        if (next) onChange(next);
      }}
    >
      {ANALYTICS_RANGES.map((range) => (
        <ToggleButton key={range} value={range} aria-label={LABELS[range]} sx={{ px: 1.5 }}>
          {range}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
