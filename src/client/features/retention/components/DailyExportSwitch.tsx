import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../../api/apiError';
import { useToast } from '../../../components/toast';
import { useGetExportScheduleQuery, useUpdateExportScheduleMutation } from '../retentionApi';

/** "Export every day": yesterday's data as a file in the operator's folder (owner; where the operator named one). */
export function DailyExportSwitch({ workspaceId, isOwner }: { workspaceId: string; isOwner: boolean }) {
  const schedule = useGetExportScheduleQuery(workspaceId);
  const [update, state] = useUpdateExportScheduleMutation();
  const { toast } = useToast();
  const data = schedule.data;
  if (!data) return null;
  const toggle = async (enabled: boolean) => {
    try {
      await update({ workspaceId, body: { enabled } }).unwrap();
    } catch (error) {
      toast({ title: 'Schedule not changed', description: errorMessage(error), variant: 'destructive' });
    }
  };
  const note = !data.available
    ? 'Off on this Toolscope: the operator has not named an export folder (TOOLSCOPE_EXPORT_DIR).'
    : data.exportedThrough
      ? `Written to the operator’s folder through ${data.exportedThrough} (UTC days).`
      : 'Each night the previous UTC day is written to the operator’s export folder, before anything expires.';
  return (
    <div>
      <FormControlLabel
        control={
          <Switch
            checked={data.enabled}
            disabled={!isOwner || !data.available || state.isLoading}
            onChange={(event) => void toggle(event.target.checked)}
          />
        }
        label="Export every day"
      />
      <Typography variant="caption" color="text.secondary" component="p">
        {note}
        {!isOwner && data.available && ' Only the owner can change this.'}
      </Typography>
    </div>
  );
}
