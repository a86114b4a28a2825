import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Plan, PlanId } from '../../../contract/plans';
import { BillingIntervalToggle } from './BillingIntervalToggle';
import type { BillingInterval } from './paymentProvider';
import { PlanCard } from './PlanCard';
import { UpgradeText } from './upgradeText';

interface PlanSelectionStepProps {
  plans: readonly Plan[];
  currentPlanId: PlanId;
  interval: BillingInterval;
  onIntervalChange: (interval: BillingInterval) => void;
  onChoose: (planId: PlanId) => void;
}

/** Step one: the interval toggle and the three plan cards. */
export function PlanSelectionStep({
  plans,
  currentPlanId,
  interval,
  onIntervalChange,
  onChoose,
}: PlanSelectionStepProps) {
  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: 'center' }}
      >
        <Typography sx={{ color: 'text.secondary' }}>{UpgradeText.subtitle}</Typography>
        <BillingIntervalToggle value={interval} onChange={onIntervalChange} />
      </Stack>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        {plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            interval={interval}
            isCurrent={plan.id === currentPlanId}
            onChoose={() => onChoose(plan.id)}
          />
        ))}
      </Box>
    </Stack>
  );
}
