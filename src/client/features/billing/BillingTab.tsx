import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { planById } from '../../../contract/plans';
import { errorMessage } from '../../api/apiError';
import { openDialog } from '../../app/dialogsSlice';
import { useAppDispatch } from '../../app/hooks';
import { formatDate, useDateDisplay } from '../../components/dates/dateDisplay';
import { useGetSubscriptionQuery, useGetWorkspaceLimitsQuery } from './billingApi';

const count = (n: number) => n.toLocaleString('en');

function UsageMeter({ label, used, limit, unit }: { label: string; used: number; limit: number | null; unit: string }) {
  const ratio = limit === null ? 0 : used / Math.max(limit, 1);
  const percent = Math.min(100, Math.round(ratio * 100));
  const over = limit !== null && used >= limit;
  const near = limit !== null && ratio >= 0.8;
  const text = limit === null ? `${count(used)} ${unit} · unlimited` : `${count(used)} of ${count(limit)} ${unit}`;
  return (
    <Box>
      <Stack direction="row" sx={{ mb: 0.75, gap: 1, flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <Typography variant="subtitle2">{label}</Typography>
        <Typography variant="body2" color={over ? 'error.main' : near ? 'warning.main' : 'text.secondary'}>
          {text}
          {limit !== null && ` (${Math.round(ratio * 100)} %)`}
        </Typography>
      </Stack>
      {limit !== null && (
        <LinearProgress
          variant="determinate"
          value={percent}
          color={over ? 'error' : near ? 'warning' : 'primary'}
          aria-label={label}
          aria-valuetext={text}
          sx={{ height: 8, borderRadius: 4 }}
        />
      )}
    </Box>
  );
}

/**
 * Billing (/settings?tab=billing, where the quota notifications lead): the plan, this month's
 * agent calls against the plan's limit, owned workspaces, and the Upgrade dialog.
 */
export function BillingTab() {
  const dispatch = useAppDispatch();
  const limits = useGetWorkspaceLimitsQuery(undefined, { refetchOnMountOrArgChange: true });
  const subscription = useGetSubscriptionQuery();
  useDateDisplay();

  if (limits.isError && !limits.data) return <Alert severity="error">{errorMessage(limits.error)}</Alert>;
  if (!limits.data) return <Skeleton variant="rounded" height={240} aria-label="Loading plan and usage" />;
  const plan = planById(limits.data.plan);
  const interval = subscription.data?.interval ?? 'monthly';
  const price = interval === 'annually' ? plan.price.annually : plan.price.monthly;
  const over = limits.data.agentCalls.limit !== null && limits.data.agentCalls.used >= limits.data.agentCalls.limit;
  const periodEnd = subscription.data?.currentPeriodEnd;

  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
          >
            <Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="h6" component="h2">
                  {`${plan.name} plan`}
                </Typography>
                <Chip
                  size="small"
                  label={
                    subscription.data?.status === 'active' || !subscription.data ? 'Active' : subscription.data.status
                  }
                  color="success"
                  variant="outlined"
                />
              </Stack>
              <Typography color="text.secondary">{plan.description}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {price === 0 ? 'Free' : `$${price} / ${interval === 'annually' ? 'year' : 'month'}`}
                {periodEnd ? ` · renews ${formatDate(periodEnd)}` : ''}
              </Typography>
            </Box>
            {plan.id !== 'enterprise' && (
              <Button variant="contained" onClick={() => dispatch(openDialog('upgrade'))}>
                Upgrade
              </Button>
            )}
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
            Usage this month
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {`Since ${formatDate(limits.data.agentCalls.periodStart)}, across the workspaces you own.`}
          </Typography>
          {over && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {`You have used this month's ${count(limits.data.agentCalls.limit ?? 0)} agent calls. Upgrade to keep tracing without interruption.`}
            </Alert>
          )}
          <Stack spacing={2.5}>
            <UsageMeter
              label="Agent calls"
              used={limits.data.agentCalls.used}
              limit={limits.data.agentCalls.limit}
              unit="calls"
            />
            <UsageMeter
              label="Workspaces"
              used={limits.data.workspaces.used}
              limit={limits.data.workspaces.limit}
              unit="workspaces"
            />
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
