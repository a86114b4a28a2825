import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { daysText, type WorkspaceRetention } from '../../../../contract/retention';
import { errorMessage } from '../../../api/apiError';
import { useToast } from '../../../components/toast';
import { useGetRetentionQuery, useUpdateRetentionMutation } from '../retentionApi';

const CHOICES = [1, 3, 7, 14, 30, 60, 90];
const PLAN_DEFAULT = 'plan';

/** The day counts offered below the ceiling (with the one chosen through the API, if it is not among them). */
function choicesUnder(ceiling: number, chosen: number | null): number[] {
  const days = CHOICES.filter((d) => d < ceiling);
  if (chosen !== null && chosen < ceiling && !days.includes(chosen)) days.push(chosen);
  return days.sort((a, b) => a - b);
}

/** The most a workspace may keep: its plan's days under the operator's cap. */
function ceilingOf(retention: WorkspaceRetention): number {
  return Math.min(retention.planDays, retention.operatorCapDays ?? retention.planDays);
}

function RetentionLines({ retention }: { retention: WorkspaceRetention }) {
  const lines: [string, string][] = [
    ['Sessions, messages, tool calls and payloads', daysText(retention.rawDays)],
    ['Minute rollups (charts by the minute)', daysText(retention.minuteRollupDays)],
    ['Hour rollups', daysText(retention.hourRollupDays)],
    ['Day rollups (analytics totals)', daysText(retention.dayRollupDays)],
  ];
  return (
    <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
      {lines.map(([what, kept]) => (
        <Stack key={what} direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {what}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600 }}>
            {kept}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}

/** Workspace Settings → Data: how long each kind of data is kept, and a shorter raw window for managers. */
export function RetentionCard({ workspaceId, canManage }: { workspaceId: string; canManage: boolean }) {
  const { toast } = useToast();
  const retention = useGetRetentionQuery(workspaceId);
  const [update, state] = useUpdateRetentionMutation();
  const [choice, setChoice] = useState<string | null>(null);
  const data = retention.data;
  if (retention.isError) return <Alert severity="error">{errorMessage(retention.error)}</Alert>;
  if (!data) return <Skeleton variant="rounded" height={220} aria-label="Loading retention" />;

  const ceiling = ceilingOf(data);
  const current = choice ?? (data.chosenDays === null ? PLAN_DEFAULT : String(data.chosenDays));
  const save = async () => {
    const rawDays = current === PLAN_DEFAULT ? null : Number(current);
    try {
      await update({ workspaceId, body: { rawDays } }).unwrap();
      setChoice(null);
      toast({ title: 'Retention saved', description: `Raw data is kept ${daysText(rawDays ?? ceiling)}.` });
    } catch (error) {
      toast({ title: 'Retention not saved', description: errorMessage(error), variant: 'destructive' });
    }
  };
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Data retention
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Raw data older than this is deleted every hour; analytics keep counting it from rollups. Your plan keeps raw
          data {daysText(data.planDays)}
          {data.operatorCapDays !== null && `, and this Toolscope at most ${daysText(data.operatorCapDays)}`}. Export
          what you need before it goes.
        </Typography>
        <RetentionLines retention={data} />
        {canManage && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3, alignItems: { sm: 'center' } }}>
            <TextField
              select
              size="small"
              label="Keep raw data"
              value={current}
              onChange={(event) => setChoice(event.target.value)}
              sx={{ minWidth: 220 }}
            >
              <MenuItem value={PLAN_DEFAULT}>As long as the plan allows ({daysText(ceiling)})</MenuItem>
              {choicesUnder(ceiling, data.chosenDays).map((days) => (
                <MenuItem key={days} value={String(days)}>
                  {daysText(days)}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="contained" onClick={() => void save()} disabled={state.isLoading || choice === null}>
              Save
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
