import { useState, type SyntheticEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  ALERT_CONDITIONS,
  ALERT_METRIC_LABELS,
  ALERT_METRICS,
  ALERT_SEVERITIES,
  type AlertRuleDto,
  type CreateAlertRuleBody,
} from '../../../../contract/alertRules';
import type { ServerDto } from '../../../../contract/servers';
import { errorMessage, fieldErrors } from '../../../api/apiError';
import { initialValues, toBody, type AlertRuleFormValues } from '../alertRuleForm';
import { RulePreview } from './RulePreview';

interface AlertRuleFormDialogProps {
  workspaceId: string;
  rule?: AlertRuleDto;
  servers: ServerDto[];
  onClose: () => void;
  onSave: (body: CreateAlertRuleBody) => Promise<void>;
}

/** Add or edit a rule: what to measure, where, when it counts, how loud; with a 7-day preview. */
export function AlertRuleFormDialog({ workspaceId, rule, servers, onClose, onSave }: AlertRuleFormDialogProps) {
  const [values, setValues] = useState<AlertRuleFormValues>(() => initialValues(rule));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string | undefined> } | null>(null);
  const set = <K extends keyof AlertRuleFormValues>(key: K, value: AlertRuleFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const body = toBody(values, rule?.enabled ?? true);
  const fields = failure?.fields ?? {};
  const fieldProps = (key: keyof AlertRuleFormValues, bodyKey: string = key) => ({
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    error: Boolean(fields[bodyKey]),
    helperText: fields[bodyKey],
    size: 'small' as const,
  });

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await onSave(body);
    } catch (caught) {
      setFailure({ message: errorMessage(caught), fields: fieldErrors(caught) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="alert-rule-form-title">
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id="alert-rule-form-title">{rule ? `Edit ${rule.name}` : 'New alert rule'}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          {failure && Object.keys(failure.fields).length === 0 && <Alert severity="error">{failure.message}</Alert>}
          <TextField label="Name" required autoFocus {...fieldProps('name')} />
          <TextField select label="Metric" {...fieldProps('metric')}>
            {ALERT_METRICS.map((metric) => (
              <MenuItem key={metric} value={metric}>
                {ALERT_METRIC_LABELS[metric]}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
            <TextField select label="Condition" {...fieldProps('condition')}>
              {ALERT_CONDITIONS.map((condition) => (
                <MenuItem key={condition} value={condition}>
                  {condition === 'above' ? 'Above' : 'Below'}
                </MenuItem>
              ))}
            </TextField>
            <TextField label="Threshold" inputMode="decimal" {...fieldProps('threshold')} />
            <TextField label="Window (minutes, 1–1440)" inputMode="numeric" {...fieldProps('windowMinutes')} />
            <TextField label="For (minutes)" inputMode="numeric" {...fieldProps('forMinutes')} />
          </Box>
          <TextField select label="Severity" {...fieldProps('severity')}>
            {ALERT_SEVERITIES.map((severity) => (
              <MenuItem key={severity} value={severity}>
                {severity[0].toUpperCase() + severity.slice(1)}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label="Server" {...fieldProps('serverId', 'scope.serverId')}>
            <MenuItem value="">All servers</MenuItem>
            {servers.map((server) => (
              <MenuItem key={server.id} value={server.id}>
                {server.name}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
            <TextField label="Tool (optional)" {...fieldProps('tool', 'scope.tool')} />
            <TextField label="Client (optional)" {...fieldProps('client', 'scope.client')} />
          </Box>
          <FormControlLabel
            control={<Switch checked={values.quiet} onChange={(e) => set('quiet', e.target.checked)} />}
            label="Quiet hours (not evaluated)"
          />
          {values.quiet && (
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 2fr' }, gap: 2 }}>
              <TextField label="From" {...fieldProps('quietStart', 'quietHours.start')} />
              <TextField label="To" {...fieldProps('quietEnd', 'quietHours.end')} />
              <TextField label="Time zone" {...fieldProps('timeZone', 'quietHours.timeZone')} />
            </Box>
          )}
          <FormControlLabel
            control={
              <Switch
                checked={values.notifyIntegrations}
                onChange={(e) => set('notifyIntegrations', e.target.checked)}
              />
            }
            label="Also send to the workspace's integrations"
          />
          <RulePreview workspaceId={workspaceId} body={body} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy || values.name.trim() === ''}>
            {rule ? 'Save' : 'Create rule'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
