import { useEffect, useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import { errorMessage } from '../../../api/apiError';
import { useToast } from '../../../components/toast';
import { DailyExportSwitch } from './DailyExportSwitch';
import { exportProgressListeners, useExportWorkspaceDataMutation } from '../exportApi';
import { NO_PROGRESS, type ExportProgress } from '../exportProgress';

/** A date field's day as the start (or end) of that day in the user's time zone, as ISO. */
function dayEdge(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function progressText(progress: ExportProgress): string {
  const sessions =
    progress.sessionsTotal === null
      ? 'Starting…'
      : `${progress.sessionsDone.toLocaleString()} of ${progress.sessionsTotal.toLocaleString()} sessions`;
  return `${sessions} · ${(progress.received / 1_048_576).toFixed(1)} MB`;
}

/** Workspace Settings → Data → Export: sessions (replay format) and the audit log for a range, as JSON Lines. */
export function ExportCard({
  workspaceId,
  canManage,
  isOwner,
}: {
  workspaceId: string;
  canManage: boolean;
  isOwner: boolean;
}) {
  const exportId = useId();
  const { toast } = useToast();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [sessions, setSessions] = useState(true);
  const [audit, setAudit] = useState(true);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [exportData, state] = useExportWorkspaceDataMutation();
  useEffect(() => {
    exportProgressListeners.set(exportId, setProgress);
    return () => void exportProgressListeners.delete(exportId);
  }, [exportId]);

  const include = [sessions && 'sessions', audit && 'audit'].filter(Boolean).join(',');
  const run = async () => {
    setProgress(NO_PROGRESS);
    try {
      const done = await exportData({
        workspaceId,
        exportId,
        include,
        from: dayEdge(from, false),
        to: dayEdge(to, true),
      }).unwrap();
      toast({
        title: done.complete ? 'Export saved' : 'Export cut off',
        description: `${done.filename}: ${done.sessions.toLocaleString()} sessions, ${done.lines.toLocaleString()} lines.`,
        ...(done.complete ? {} : { variant: 'destructive' as const }),
      });
    } catch (error) {
      toast({ title: 'Export failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setProgress(null);
    }
  };
  const fraction = progress?.sessionsTotal
    ? Math.min(100, (progress.sessionsDone / progress.sessionsTotal) * 100)
    : undefined;
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Export
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Sessions with every message, tool call and payload as the replay shows them, and the audit log, as JSON Lines
          (one JSON object per line). Leave the dates empty for everything still kept.
        </Typography>
        {!canManage ? (
          <Alert severity="info">Owners and admins can export this workspace’s data.</Alert>
        ) : (
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                type="date"
                size="small"
                label="From"
                value={from}
                onChange={(event) => setFrom(event.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField
                type="date"
                size="small"
                label="To"
                value={to}
                onChange={(event) => setTo(event.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </Stack>
            <Stack direction="row" spacing={2}>
              <FormControlLabel
                control={<Checkbox checked={sessions} onChange={(event) => setSessions(event.target.checked)} />}
                label="Sessions"
              />
              <FormControlLabel
                control={<Checkbox checked={audit} onChange={(event) => setAudit(event.target.checked)} />}
                label="Audit log"
              />
            </Stack>
            <div>
              <Button
                variant="contained"
                startIcon={<DownloadOutlinedIcon />}
                disabled={state.isLoading || include === ''}
                onClick={() => void run()}
              >
                {state.isLoading ? 'Exporting…' : 'Export JSON Lines'}
              </Button>
            </div>
            <DailyExportSwitch workspaceId={workspaceId} isOwner={isOwner} />
            {progress && (
              <div role="status" aria-live="polite">
                <LinearProgress
                  variant={fraction === undefined ? 'indeterminate' : 'determinate'}
                  value={fraction}
                  aria-label="Export progress"
                />
                <Typography variant="caption" color="text.secondary">
                  {progressText(progress)}
                </Typography>
              </div>
            )}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
