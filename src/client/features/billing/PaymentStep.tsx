import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Plan } from '../../../contract/plans';
import type { BillingInterval } from './paymentProvider';
import { planPriceView } from './planPricing';
import { UpgradeText } from './upgradeText';

interface PaymentStepProps {
  plan: Plan;
  interval: BillingInterval;
  processing: boolean;
  error: string | null;
  onBack: () => void;
  onPay: () => void;
}

function SummaryRow({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography sx={{ color: 'text.secondary' }}>{label}</Typography>
      <Typography>{value}</Typography>
    </Stack>
  );
}

/** Step two: what will be paid, Back, Pay → 'Processing', and the inline error of a failure. */
export function PaymentStep({ plan, interval, processing, error, onBack, onPay }: PaymentStepProps) {
  const price = planPriceView(plan, interval);
  return (
    <Stack spacing={2} sx={{ py: 1 }}>
      <Typography variant="h6" component="h3">
        {UpgradeText.summaryTitle}
      </Typography>
      <SummaryRow label={UpgradeText.plan} value={plan.name} />
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: '4px !important' }}>
        {plan.description}
      </Typography>
      <SummaryRow
        label={UpgradeText.billing}
        value={interval === 'monthly' ? UpgradeText.billedMonthly : UpgradeText.billedAnnually}
      />
      {price.saving !== null && (
        <Typography variant="body2" sx={{ color: 'success.main', textAlign: 'right' }}>
          {price.saving}
        </Typography>
      )}
      <Divider />
      <SummaryRow label={UpgradeText.total} value={`${price.amount}${price.period}`} />
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {UpgradeText.stubNotice}
      </Typography>
      {error !== null && <Alert severity="error">{error}</Alert>}
      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
        <Button onClick={onBack} disabled={processing} color="inherit">
          {UpgradeText.back}
        </Button>
        <Button
          variant="contained"
          onClick={onPay}
          disabled={processing}
          startIcon={processing ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        >
          {processing ? UpgradeText.processing : UpgradeText.pay(price.amount)}
        </Button>
      </Stack>
    </Stack>
  );
}
