import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { INTEGRATION_KINDS, type DeliveryOutcome } from '../../../../contract/integrations';
import { NOTIFICATION_SEVERITIES, NOTIFICATION_TYPES, type NotificationType } from '../../../../contract/notifications';
import type { FormFailure } from '../../../components/useFormDialogSubmit';
import { bindTextFields } from '../../../components/bindTextFields';
import { FormDialog } from '../../../components/FormDialog';
import { FormFields } from '../../../components/FormFields';
import { menuOptions } from '../../../components/menuOptions';
import { useValidatedFormSubmit } from '../../../components/useValidatedFormSubmit';
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
  const { busy, errors, general, check, submit } = useValidatedFormSubmit(values, validateForm, onSubmit);
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<DeliveryOutcome | string | null>(null);

  const set = <K extends keyof IntegrationFormValues>(field: K, value: IntegrationFormValues[K]) =>
    setValues((v) => ({ ...v, [field]: value }));
  const toggleType = (type: NotificationType) =>
    set('types', values.types.includes(type) ? values.types.filter((t) => t !== type) : [...values.types, type]);

  const test = async () => {
    if (testing || !check()) return;
    setTesting(true);
    setOutcome(null);
    setOutcome(await onTest(values));
    setTesting(false);
  };

  const { kind } = values;
  const field = bindTextFields(values, errors, busy, set);
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
      <FormFields error={general}>
        <TextField select label="Kind" {...field('kind')} disabled={editing || busy}>
          {menuOptions(INTEGRATION_KINDS, (option) => KIND_LABELS[option])}
        </TextField>
        <TextField label="Name" {...field('name')} required autoFocus />
        {kind !== 'email' && (
          <TextField
            label={URL_LABEL[kind]}
            {...field('url', { help: URL_HELP[kind] })}
            required={kind !== 'pagerduty'}
          />
        )}
        {(kind === 'webhook' || kind === 'pagerduty') && (
          <TextField
            label={kind === 'webhook' ? 'Signing secret (optional)' : 'Routing key'}
            {...field('secret', {
              help:
                kind === 'webhook'
                  ? editing
                    ? 'Shown masked; leave it to keep the stored secret'
                    : 'Leave empty and Toolscope generates one, shown once'
                  : 'The integration key of a PagerDuty service (Events API v2)',
            })}
            required={kind === 'pagerduty'}
            autoComplete="off"
          />
        )}
        {kind === 'email' && (
          <TextField
            label="Send to"
            {...field('recipients', { help: 'Addresses separated by commas' })}
            required
            multiline
            minRows={2}
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
          {menuOptions(NOTIFICATION_SEVERITIES, (severity) => severity)}
        </TextField>
        <FormControlLabel
          control={
            <Switch checked={values.enabled} onChange={(e) => set('enabled', e.target.checked)} disabled={busy} />
          }
          label="Enabled"
        />
        {outcome !== null && <TestOutcomeAlert outcome={outcome} />}
      </FormFields>
    </FormDialog>
  );
}
