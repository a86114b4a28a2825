import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Plan } from '../../../contract/plans';
import type { BillingInterval } from './paymentProvider';
import { PlanFeatureList } from './PlanFeatureList';
import { planPriceView } from './planPricing';
import { UpgradeText } from './upgradeText';

interface PlanCardProps {
  plan: Plan;
  interval: BillingInterval;
  isCurrent: boolean;
  onChoose: () => void;
}

/** One plan of the selection step: price for the interval, features, popular badge, its button. */
export function PlanCard({ plan, interval, isCurrent, onChoose }: PlanCardProps) {
  const price = planPriceView(plan, interval);
  return (
    <Card
      variant="outlined"
      aria-label={plan.name}
      component="section"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        borderColor: plan.popular ? 'primary.main' : 'divider',
        borderWidth: plan.popular ? 2 : 1,
      }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1, minHeight: 28 }}>
          <Typography variant="h6" component="h3">
            {plan.name}
          </Typography>
          {plan.popular && <Chip label={UpgradeText.popular} color="primary" size="small" />}
        </Stack>
        <Typography variant="body2" sx={{ color: 'text.secondary', minHeight: 40 }}>
          {plan.description}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'baseline', mt: 2 }}>
          <Typography variant="h4" component="p">
            {price.amount}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {price.period}
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ color: 'success.main', minHeight: 20, mb: 1 }}>
          {price.saving ?? ''}
        </Typography>
        <PlanFeatureList features={plan.features} />
      </CardContent>
      <CardActions sx={{ p: 2, pt: 0 }}>
        <Button fullWidth variant={isCurrent ? 'outlined' : 'contained'} disabled={isCurrent} onClick={onChoose}>
          {isCurrent ? UpgradeText.currentPlan : UpgradeText.upgradeTo(plan.name)}
        </Button>
      </CardActions>
    </Card>
  );
}
