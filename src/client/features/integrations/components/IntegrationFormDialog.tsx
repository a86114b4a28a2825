import { useState, type SyntheticEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { INTEGRATION_KINDS, type DeliveryOutcome } from '../../../../contract/integrations';
import { NOTIFICATION_SEVERITIES, NOTIFICATION_TYPES, type NotificationType } from '../../../../contract/notifications';
import type { FieldErrors } from '../../../api/apiError';
import type { FormFailure } from '../../../components/useFormDialogSubmit';
import { FormDialog } from '../../../components/FormDialog';
import { EMPTY_FORM, KIND_LABELS, validateForm, type IntegrationFormValues } from '../integrationForm';
import { TestOutcomeAlert } from './TestOutcomeAlert';

interface IntegrationFormDialogProps {
  title: string;
  submitLabel: string;
  initial?: IntegrationFormValues;
  /** Editing: the kind is fixed and secrets show masked (sent back as shown, they stay). */
  editing?: boolean;
  onSubmit: (values: IntegrationFormValues) => Promise<FormFailure | null>;
  onTest: (values: IntegrationFormValues) => Promise<DeliveryOutcome | string>;
  onClose: () => void;
}

const URL_LABEL = {
  slack: 'Slack incoming webhook URL',
  webhook: 'Receiver URL',
  pagerduty: 'Events API URL (optional)',
  email: '',
} as const;
const URL_HELP = {
  slack: 'From Slack: Apps → Incoming Webhooks → Add New Webhook to Workspace',
  webhook: 'Toolscope POSTs signed JSON (Standard Webhooks) to this URL',
  pagerduty: 'Leave empty for https://events.pagerduty.com/v2/enqueue',
  email: '',
} as const;
const TYPE_LABELS: Record<NotificationType, string> = {
  session_alert: 'Session alerts',
  tool_server_status: 'Server status',
  billing_alert: 'Billing',
  workspace_invite: 'Invitations',
  system_announcement: 'System',
  security_alert: 'Security',
  performance_warning: 'Performance',
  deployment_update: 'Deployments',
  tool_risk: 'Tool definition risk',
  alert_rule: 'Alert rules',
};

/** Add or edit an integration: per-kind fields, which notifications go out, and a test send. */
export function IntegrationFormDialog({
  title,
  submitLabel,
  initial = EMPTY_FORM,
  editing = false,
  onSubmit,
  onTest,
  onClose,
}: IntegrationFormDialogProps) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<DeliveryOutcome | string | null>(null);

  const set = <K extends keyof IntegrationFormValues>(field: K, value: IntegrationFormValues[K]) =>
    setValues((v) => ({ ...v, [field]: value }));
  const text = (field: 'name' | 'url' | 'secret' | 'recipients') => (event: { target: { value: string } }) =>
    set(field, event.target.value);
  const toggleType = (type: NotificationType) =>
    set('types', values.types.includes(type) ? values.types.filter((t) => t !== type) : [...values.types, type]);

  const check = () => {
    const found = validateForm(values);
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (busy || !check()) return;
    setBusy(true);
    setGeneral(null);
    const failure = await onSubmit(values);
    setBusy(false);
    if (failure) {
      setErrors(failure.fields);
      if (Object.keys(failure.fields).length === 0) setGeneral(failure.message);
    }
  };

  const test = async () => {
    if (testing || !check()) return;
    setTesting(true);
    setOutcome(null);
    setOutcome(await onTest(values));
    setTesting(false);
  };

  const { kind } = values;
  return (
    <FormDialog
      titleId="integration-form-title"
      title={title}
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={submitLabel}
      busyLabel="Saving…"
      extraAction={
        <Button onClick={() => void test()} disabled={busy || testing} sx={{ mr: 'auto' }}>
          {testing ? 'Sending test…' : 'Send test'}
        </Button>
      }
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {general && <Alert severity="error">{general}</Alert>}
        <TextField
          select
          label="Kind"
          name="kind"
          value={kind}
          disabled={editing || busy}
          onChange={(e) => set('kind', e.target.value as IntegrationFormValues['kind'])}
        >
          {INTEGRATION_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {KIND_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Name"
          name="name"
          value={values.name}
          onChange={text('name')}
          required
          autoFocus
          disabled={busy}
          error={Boolean(errors.name)}
          helperText={errors.name}
        />
        {kind !== 'email' && (
          <TextField
            label={URL_LABEL[kind]}
            name="url"
            value={values.url}
            onChange={text('url')}
            required={kind !== 'pagerduty'}
            disabled={busy}
            error={Boolean(errors.url)}
            helperText={errors.url ?? URL_HELP[kind]}
          />
        )}
        {(kind === 'webhook' || kind === 'pagerduty') && (
          <TextField
            label={kind === 'webhook' ? 'Signing secret (optional)' : 'Routing key'}
            name="secret"
            value={values.secret}
            onChange={text('secret')}
            required={kind === 'pagerduty'}
            disabled={busy}
            autoComplete="off"
            error={Boolean(errors.secret)}
            helperText={
              errors.secret ??
              (kind === 'webhook'
                ? editing
                  ? 'Shown masked; leave it to keep the stored secret'
                  : 'Leave empty and Toolscope generates one, shown once'
                : 'The integration key of a PagerDuty service (Events API v2)')
            }
          />
        )}
        {kind === 'email' && (
          <TextField
            label="Send to"
            name="recipients"
            value={values.recipients}
            onChange={text('recipients')}
            required
            multiline
            minRows={2}
            disabled={busy}
            error={Boolean(errors.recipients)}
            helperText={errors.recipients ?? 'Addresses separated by commas'}
          />
        )}
        <div>
          <Typography variant="subtitle2" gutterBottom>
            Notifications to send
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} role="group" aria-label="Notification types">
            {NOTIFICATION_TYPES.map((type) => (
              <Chip
                key={type}
                label={TYPE_LABELS[type]}
                color={values.types.includes(type) ? 'primary' : 'default'}
                variant={values.types.includes(type) ? 'filled' : 'outlined'}
                onClick={() => toggleType(type)}
                aria-pressed={values.types.includes(type)}
                disabled={busy}
              />
            ))}
          </Stack>
          <Typography variant="caption" color="text.secondary">
            {values.types.length === 0 ? 'None chosen: every type is sent.' : `${values.types.length} type(s) chosen.`}
          </Typography>
        </div>
        <TextField
          select
          label="Minimum severity"
          name="minSeverity"
          value={values.minSeverity}
          disabled={busy}
          onChange={(e) => set('minSeverity', e.target.value as IntegrationFormValues['minSeverity'])}
          helperText={
            kind === 'pagerduty'
              ? 'PagerDuty is sent error and critical events, and resolves when a server is back online'
              : errors.rules
          }
        >
          {NOTIFICATION_SEVERITIES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Switch checked={values.enabled} onChange={(e) => set('enabled', e.target.checked)} disabled={busy} />
          }
          label="Enabled"
        />
        {outcome !== null && <TestOutcomeAlert outcome={outcome} />}
      </Stack>
    </FormDialog>
  );
}
