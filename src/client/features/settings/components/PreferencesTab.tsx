import { useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ActivityStreamDefault, DateFormat, TimeFormat } from '../../../../contract/account';
import type { UpdatePreferencesBody } from '../../../../contract/auth';
import { NOTIFICATION_TYPES, type NotificationType } from '../../../../contract/notifications';
import { errorMessage } from '../../../api/apiError';
import { formatDateTime, knownTimeZones, useDateDisplay } from '../../../components/dates/dateDisplay';
import { useToast } from '../../../components/toast';
import { useClock } from '../../../components/useClock';
import { useGetWorkspacesQuery } from '../../workspaces/workspacesApi';
import { NOTIFICATION_TYPE_LABELS } from '../notificationTypeLabels';
import { useGetPreferencesQuery, useUpdatePreferencesMutation } from '../settingsApi';

const DATE_FORMAT_LABELS: Record<DateFormat, string> = {
  locale: 'Browser default',
  iso: '2025-11-25',
  dmy: '25/11/2025',
  mdy: '11/25/2025',
};
const TIME_FORMAT_LABELS: Record<TimeFormat, string> = {
  locale: 'Browser default',
  '24h': '24-hour (14:05)',
  '12h': '12-hour (2:05 PM)',
};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The time now in the chosen formats, kept current by the shared clock (only this redraws each second). */
function NowInFormat({ display }: { display: ReturnType<typeof useDateDisplay> }) {
  const now = useClock(1_000);
  return <time data-testid="preferences-clock">{formatDateTime(now, display)}</time>;
}

/** Preferences (flag show_personal_preferences): each change is saved at once, with a toast. */
export function PreferencesTab() {
  const { toast } = useToast();
  const preferences = useGetPreferencesQuery();
  const workspaces = useGetWorkspacesQuery();
  const [update] = useUpdatePreferencesMutation();
  const display = useDateDisplay();
  const zones = useMemo(() => knownTimeZones(), []);

  const save = async (changes: UpdatePreferencesBody, what: string) => {
    try {
      await update(changes).unwrap();
      toast({ title: 'Preferences saved', description: what });
    } catch (caught) {
      toast({ title: 'Preferences not saved', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  if (preferences.isError && !preferences.data)
    return <Alert severity="error">{errorMessage(preferences.error)}</Alert>;
  const prefs = preferences.data;
  if (!prefs) return <Skeleton variant="rounded" height={320} aria-label="Loading preferences" />;
  const emailTypes = new Set<NotificationType>(prefs.emailNotificationTypes ?? []);
  const toggleEmail = (type: NotificationType, on: boolean) => {
    const next = NOTIFICATION_TYPES.filter((t) => (t === type ? on : emailTypes.has(t)));
    void save(
      { emailNotificationTypes: next },
      `${NOTIFICATION_TYPE_LABELS[type]} ${on ? 'will' : 'will not'} also come by email.`,
    );
  };

  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            Dates and times
          </Typography>
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
            <Autocomplete
              options={zones}
              value={prefs.timezone ?? null}
              onChange={(_, zone) =>
                void save(
                  { timezone: zone ?? null },
                  zone ? `Times are shown in ${zone}.` : `Times follow this browser (${browserZone()}).`,
                )
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Time zone"
                  helperText={`Every date in Toolscope is shown in this zone. Empty: this browser's (${browserZone()}).`}
                />
              )}
            />
            <TextField
              select
              label="Date format"
              value={prefs.dateFormat ?? 'locale'}
              onChange={(e) => void save({ dateFormat: e.target.value as DateFormat }, 'Date format changed.')}
            >
              {Object.entries(DATE_FORMAT_LABELS).map(([value, label]) => (
                <MenuItem key={value} value={value}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Time format"
              value={prefs.timeFormat ?? 'locale'}
              onChange={(e) => void save({ timeFormat: e.target.value as TimeFormat }, 'Time format changed.')}
            >
              {Object.entries(TIME_FORMAT_LABELS).map(([value, label]) => (
                <MenuItem key={value} value={value}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
            <Typography variant="body2" color="text.secondary" aria-live="polite">
              Now: <NowInFormat display={display} />
            </Typography>
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            Workspace and activity
          </Typography>
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
            <TextField
              select
              label="Default workspace"
              value={prefs.defaultWorkspaceId ?? ''}
              helperText="Opened when the last one you used is no longer available."
              onChange={(e) => void save({ defaultWorkspaceId: e.target.value || null }, 'Default workspace changed.')}
            >
              <MenuItem value="">First in the list</MenuItem>
              {(workspaces.data ?? []).map((w) => (
                <MenuItem key={w.id} value={w.id}>
                  {w.name}
                </MenuItem>
              ))}
            </TextField>
            <FormControl>
              <FormLabel id="stream-default-label">Live activity stream opens</FormLabel>
              <RadioGroup
                row
                aria-labelledby="stream-default-label"
                value={prefs.activityStreamDefault ?? 'live'}
                onChange={(_, value) =>
                  void save(
                    { activityStreamDefault: value as ActivityStreamDefault },
                    `The activity stream will open ${value}.`,
                  )
                }
              >
                <FormControlLabel value="live" control={<Radio />} label="Live" />
                <FormControlLabel value="paused" control={<Radio />} label="Paused" />
              </RadioGroup>
            </FormControl>
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
            Email notifications
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Every notification shows in the app; these also come by email.
          </Typography>
          <FormGroup>
            {NOTIFICATION_TYPES.map((type) => (
              <FormControlLabel
                key={type}
                control={
                  <Checkbox checked={emailTypes.has(type)} onChange={(e) => toggleEmail(type, e.target.checked)} />
                }
                label={NOTIFICATION_TYPE_LABELS[type]}
              />
            ))}
          </FormGroup>
        </CardContent>
      </Card>
    </Stack>
  );
}
