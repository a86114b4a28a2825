import Chip from '@mui/material/Chip';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { BillingInterval } from './paymentProvider';
import { UpgradeText } from './upgradeText';

interface BillingIntervalToggleProps {
  value: BillingInterval;
  onChange: (interval: BillingInterval) => void;
}

/** Monthly / annual, the annual side carrying the 'Save 17%' badge. */
export function BillingIntervalToggle({ value, onChange }: BillingIntervalToggleProps) {
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={value}
      aria-label={UpgradeText.billing}
      // A click on the selected side reports null; the interval never becomes empty.
      onChange={(_, next: BillingInterval | null) => next && onChange(next)}
    >
      <ToggleButton value="monthly" sx={{ px: 2 }}>
        {UpgradeText.monthly}
      </ToggleButton>
      <ToggleButton value="annually" sx={{ px: 2, gap: 1 }}>
        {UpgradeText.annually}
        <Chip label={UpgradeText.annualBadge} size="small" color="success" sx={{ height: 20, fontSize: 11 }} />
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
