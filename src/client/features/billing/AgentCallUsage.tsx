import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { planById } from '../../../contract/plans';
import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../auth/authSlice';
import { useGetWorkspaceLimitsQuery } from './billingApi';

/** How often the month's count is read again while shown. */
const REFRESH_MS = 60_000;

/** The month's agent calls against the plan's limit (the proxy refuses tools/call past 100 %). */
export function AgentCallUsage() {
  const user = useAppSelector(selectCurrentUser);
  const limits = useGetWorkspaceLimitsQuery(undefined, { skip: !user, pollingInterval: REFRESH_MS });
  const data = limits.data;
  if (!data) return limits.isError ? null : <Skeleton variant="rounded" height={76} />;
  const { used, limit, periodStart } = data.agentCalls;
  const percent = limit ? Math.min(100, (used / limit) * 100) : 0;
  const start = new Date(periodStart);
  const resets = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return (
    <Paper variant="outlined" component="section" aria-label="Agent calls this month" sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2">Agent calls this month</Typography>
        <Typography variant="body2" color="text.secondary">
          {used.toLocaleString('en')} / {limit === null ? 'unlimited' : limit.toLocaleString('en')} ·{' '}
          {planById(data.plan).name} plan
        </Typography>
      </Box>
      {limit !== null && (
        <LinearProgress
          variant="determinate"
          value={percent}
          color={percent >= 100 ? 'error' : percent >= 80 ? 'warning' : 'primary'}
          sx={{ my: 1, height: 6, borderRadius: 3 }}
          aria-label="Share of the monthly agent-call limit used"
        />
      )}
      <Typography variant="caption" color="text.secondary">
        {limit !== null && used >= limit ? 'Limit reached: agents get an error for tool calls until ' : 'Resets '}
        {resets.toLocaleDateString(undefined, { month: 'long', day: 'numeric', timeZone: 'UTC' })} (UTC)
      </Typography>
    </Paper>
  );
}
