import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { RESTART_POLICIES, SESSION_MODES } from '../../../../contract/deployments';
import { useFormDialogSubmit, type FormFailure } from '../../../components/useFormDialogSubmit';
import { FormDialog } from '../../../components/FormDialog';
import { EMPTY_CONFIG_FORM, type ConfigFormValues } from '../configForm';

interface DeploymentConfigDialogProps {
  title: string;
  submitLabel: string;
  busyLabel: string;
  initial?: ConfigFormValues;
  allowedCommands: string[];
  onSubmit: (values: ConfigFormValues) => Promise<FormFailure | null>;
  onClose: () => void;
}

const POLICY_TEXT = {
  always: 'Always restart',
  'on-failure': 'Restart when it fails',
  never: 'Never restart',
} as const;
const MODE_TEXT = {
  shared: 'One process for every agent session',
  'per-session': 'One process per agent session',
} as const;

/** Create or edit a hosted server: the program, its environment (with key references), its restart policy and limits. */
export function DeploymentConfigDialog({
  title,
  submitLabel,
  busyLabel,
  initial = EMPTY_CONFIG_FORM,
  allowedCommands,
  onSubmit,
  onClose,
}: DeploymentConfigDialogProps) {
  const [values, setValues] = useState(initial);
  const blank = !values.name.trim() || !values.command.trim();
  const { busy, fields, general, submit } = useFormDialogSubmit(() => onSubmit(values), blank);
  const change = (field: keyof ConfigFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const toggle = (field: 'noNetwork' | 'ownPidNamespace') => (_event: unknown, checked: boolean) =>
    setValues((current) => ({ ...current, [field]: checked }));

  return (
    <FormDialog
      titleId="deployment-form-title"
      title={title}
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      submitDisabled={blank}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {general && <Alert severity="error">{general}</Alert>}
        <TextField
          label="Name"
          name="name"
          value={values.name}
          onChange={change('name')}
          required
          autoFocus
          disabled={busy}
          error={Boolean(fields.name)}
          helperText={fields.name}
        />
        <TextField
          label="Description"
          name="description"
          value={values.description}
          onChange={change('description')}
          disabled={busy}
          error={Boolean(fields.description)}
          helperText={fields.description}
        />
        <TextField
          label="Command"
          name="command"
          value={values.command}
          onChange={change('command')}
          required
          disabled={busy}
          error={Boolean(fields.command)}
          helperText={
            fields.command ??
            `One program, started without a shell. Allowed here: ${allowedCommands.join(', ') || 'none'}`
          }
        />
        <TextField
          label="Arguments"
          name="args"
          value={values.args}
          onChange={change('args')}
          multiline
          minRows={2}
          disabled={busy}
          placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/data'}
          error={Boolean(fields.args)}
          helperText={fields.args ?? 'One argument per line'}
        />
        <TextField
          label="Environment"
          name="env"
          value={values.env}
          onChange={change('env')}
          multiline
          minRows={2}
          disabled={busy}
          placeholder={'LOG_LEVEL=info\nGITHUB_TOKEN={{key:GITHUB_TOKEN}}'}
          error={Boolean(fields.env)}
          helperText={
            fields.env ??
            'NAME=value, one per line. {{key:NAME}} refers to a workspace key. The program gets only these, plus PATH and HOME.'
          }
        />
        <TextField
          label="Working folder"
          name="cwd"
          value={values.cwd}
          onChange={change('cwd')}
          disabled={busy}
          error={Boolean(fields.cwd)}
          helperText={fields.cwd ?? "A folder inside the deployment's own working folder; empty for the folder itself"}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label="Restart policy"
            name="restartPolicy"
            value={values.restartPolicy}
            onChange={change('restartPolicy')}
            disabled={busy}
            fullWidth
          >
            {RESTART_POLICIES.map((policy) => (
              <MenuItem key={policy} value={policy}>
                {POLICY_TEXT[policy]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Max restarts in a row"
            name="maxRestarts"
            value={values.maxRestarts}
            onChange={change('maxRestarts')}
            disabled={busy}
            error={Boolean(fields.maxRestarts)}
            helperText={fields.maxRestarts}
            fullWidth
          />
          <TextField
            label="Start timeout (s)"
            name="startTimeoutSeconds"
            value={values.startTimeoutSeconds}
            onChange={change('startTimeoutSeconds')}
            disabled={busy}
            error={Boolean(fields.startTimeoutMs)}
            helperText={fields.startTimeoutMs}
            fullWidth
          />
        </Stack>
        <TextField
          select
          label="Sessions"
          name="sessionMode"
          value={values.sessionMode}
          onChange={change('sessionMode')}
          disabled={busy}
        >
          {SESSION_MODES.map((mode) => (
            <MenuItem key={mode} value={mode}>
              {MODE_TEXT[mode]}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="subtitle2">Limits and isolation (where the host allows them)</Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label="Memory (MiB)"
            name="memoryMb"
            value={values.memoryMb}
            onChange={change('memoryMb')}
            disabled={busy}
            error={Boolean(fields['limits.memoryMb'])}
            helperText={fields['limits.memoryMb']}
            fullWidth
          />
          <TextField
            label="Open files"
            name="openFiles"
            value={values.openFiles}
            onChange={change('openFiles')}
            disabled={busy}
            error={Boolean(fields['limits.openFiles'])}
            helperText={fields['limits.openFiles']}
            fullWidth
          />
        </Stack>
        <Stack sx={{ flexWrap: 'wrap' }} direction="row" spacing={2}>
          <FormControlLabel
            control={<Checkbox checked={values.noNetwork} onChange={toggle('noNetwork')} disabled={busy} />}
            label="No network"
          />
          <FormControlLabel
            control={<Checkbox checked={values.ownPidNamespace} onChange={toggle('ownPidNamespace')} disabled={busy} />}
            label="Own process namespace"
          />
        </Stack>
        {fields.isolation && <Alert severity="error">{fields.isolation}</Alert>}
      </Stack>
    </FormDialog>
  );
}
