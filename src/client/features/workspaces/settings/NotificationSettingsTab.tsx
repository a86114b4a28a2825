import { useState, type SyntheticEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { NOTIFICATION_TYPES, NotificationSettings, type NotificationType } from '../../../../contract/notifications';
import type { WorkspaceDto } from '../../../../contract/workspaces';
import { errorMessage, fieldErrors, type FieldErrors } from '../../../api/apiError';
import { useToast } from '../../../components/toast';
import { useEditedCopy } from '../../../components/useEditedCopy';
import { useGetNotificationSettingsQuery, useUpdateNotificationSettingsMutation } from '../workspaceSettingsApi';

const NUMBER_FIELDS = [
  {
    key: 'sessionErrorRatePercent',
    label: 'Session error rate alert (%)',
    help: 'A session alerts when this share of its calls failed.',
  },
  {
    key: 'sessionP95LatencyMs',
    label: 'Session p95 latency warning (ms)',
    help: 'A session warns when the 95th percentile of its call durations reaches this.',
  },
  {
    key: 'sessionMinCalls',
    label: 'Calls before a session is judged',
    help: 'Fewer calls than this raise no session alert.',
  },
  {
    key: 'groupingWindowMinutes',
    label: 'Grouping window (minutes)',
    help: 'Repeats within it update the unread notification instead of adding one.',
  },
] as const;
type NumberKey = (typeof NUMBER_FIELDS)[number]['key'];

const TYPE_LABELS: Record<NotificationType, string> = {
  session_alert: 'Session alerts',
  tool_server_status: 'Tool server status',
  billing_alert: 'Billing',
  workspace_invite: 'Workspace invitations',
  system_announcement: 'System announcements',
  security_alert: 'Security alerts',
  performance_warning: 'Performance warnings',
  deployment_update: 'Deployment updates',
  tool_risk: 'Risky tool definitions',
  alert_rule: 'Alert rules',
};

/** The number fields as the stored settings fill them (blank until they are loaded). */
function formValues(data: NotificationSettings | undefined): Record<NumberKey, string> {
  return {
    sessionErrorRatePercent: data ? String(data.sessionErrorRatePercent) : '',
    sessionP95LatencyMs: data ? String(data.sessionP95LatencyMs) : '',
    sessionMinCalls: data ? String(data.sessionMinCalls) : '',
    groupingWindowMinutes: data ? String(data.groupingWindowMinutes) : '',
  };
}

/** Notifications: the workspace's thresholds and muted types (owners and admins change them). */
export function NotificationSettingsTab({ workspace }: { workspace: WorkspaceDto }) {
  const { toast } = useToast();
  const settings = useGetNotificationSettingsQuery(workspace.id);
  const [update, state] = useUpdateNotificationSettingsMutation();
  // The form starts over from the stored settings whenever they are (re)loaded.
  const [values, setValues] = useEditedCopy(settings.data, formValues);
  const [muted, setMuted] = useEditedCopy(settings.data, (data): NotificationType[] => data?.mutedTypes ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const canEdit = workspace.role === 'owner' || workspace.role === 'admin';

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    // The contract's own schema checks every field here first, so one submit shows every mistake.
    const candidate = {
      ...Object.fromEntries(
        NUMBER_FIELDS.map(({ key }) => [key, values[key].trim() === '' ? Number.NaN : Number(values[key])]),
      ),
      mutedTypes: muted,
    };
    const parsed = NotificationSettings.safeParse(candidate);
    if (!parsed.success) {
      const local: Record<string, string> = {};
      for (const issue of parsed.error.issues)
        local[String(issue.path[0])] ??= issue.message.startsWith('Invalid input') ? 'Enter a number' : issue.message;
      setErrors(local);
      return;
    }
    setErrors({});
    try {
      await update({ workspaceId: workspace.id, body: parsed.data }).unwrap();
      toast({ title: 'Notification settings saved', description: `For ${workspace.name}.` });
    } catch (caught) {
      setErrors(fieldErrors(caught));
      toast({ title: 'Notification settings not saved', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  if (settings.isError && !settings.data) return <Alert severity="error">{errorMessage(settings.error)}</Alert>;
  if (!settings.data) return <Skeleton variant="rounded" height={320} aria-label="Loading notification settings" />;
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          Notification thresholds
        </Typography>
        <Box
          component="form"
          noValidate
          onSubmit={(event) => void save(event)}
          aria-label="Notification settings"
          sx={{ maxWidth: 560 }}
        >
          <Stack spacing={2}>
            {NUMBER_FIELDS.map((field) => (
              <TextField
                key={field.key}
                label={field.label}
                type="number"
                value={values[field.key]}
                onChange={(e) => setValues((v) => ({ ...v, [field.key]: e.target.value }))}
                disabled={!canEdit}
                error={Boolean(errors[field.key])}
                helperText={errors[field.key] ?? field.help}
              />
            ))}
            <Typography variant="subtitle2">Notify about</Typography>
            <FormGroup>
              {NOTIFICATION_TYPES.map((type) => (
                <FormControlLabel
                  key={type}
                  label={TYPE_LABELS[type]}
                  control={
                    <Checkbox
                      checked={!muted.includes(type)}
                      disabled={!canEdit}
                      onChange={(e) => setMuted((m) => (e.target.checked ? m.filter((t) => t !== type) : [...m, type]))}
                    />
                  }
                />
              ))}
            </FormGroup>
            {canEdit ? (
              <Box>
                <Button type="submit" variant="contained" disabled={state.isLoading}>
                  {state.isLoading ? 'Saving…' : 'Save'}
                </Button>
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary">
                Only owners and admins can change these.
              </Typography>
            )}
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
