import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { RESTART_POLICIES, SESSION_MODES } from '../../../../contract/deployments';
import { useFormDialogSubmit, type FormFailure } from '../../../components/useFormDialogSubmit';
import { bindTextFields } from '../../../components/bindTextFields';
import { FormDialog } from '../../../components/FormDialog';
import { FormFields } from '../../../components/FormFields';
import { menuOptions } from '../../../components/menuOptions';
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
  const field = bindTextFields(values, fields, busy, (name, text) =>
    setValues((current) => ({ ...current, [name]: text })),
  );
  const toggle = (name: 'noNetwork' | 'ownPidNamespace') => (_event: unknown, checked: boolean) =>
    setValues((current) => ({ ...current, [name]: checked }));

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
      <FormFields error={general}>
        <TextField label="Name" {...field('name')} required autoFocus />
        <TextField label="Description" {...field('description')} />
        <TextField
          label="Command"
          {...field('command', {
            help: `One program, started without a shell. Allowed here: ${allowedCommands.join(', ') || 'none'}`,
          })}
          required
        />
        <TextField
          label="Arguments"
          {...field('args', { help: 'One argument per line' })}
          multiline
          minRows={2}
          placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/data'}
        />
        <TextField
          label="Environment"
          {...field('env', {
            help: 'NAME=value, one per line. {{key:NAME}} refers to a workspace key. The program gets only these, plus PATH and HOME.',
          })}
          multiline
          minRows={2}
          placeholder={'LOG_LEVEL=info\nGITHUB_TOKEN={{key:GITHUB_TOKEN}}'}
        />
        <TextField
          label="Working folder"
          {...field('cwd', {
            help: "A folder inside the deployment's own working folder; empty for the folder itself",
          })}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField select label="Restart policy" {...field('restartPolicy')} fullWidth>
            {menuOptions(RESTART_POLICIES, (policy) => POLICY_TEXT[policy])}
          </TextField>
          <TextField label="Max restarts in a row" {...field('maxRestarts')} fullWidth />
          <TextField
            label="Start timeout (s)"
            {...field('startTimeoutSeconds', { errorKey: 'startTimeoutMs' })}
            fullWidth
          />
        </Stack>
        <TextField select label="Sessions" {...field('sessionMode')}>
          {menuOptions(SESSION_MODES, (mode) => MODE_TEXT[mode])}
        </TextField>
        <Typography variant="subtitle2">Limits and isolation (where the host allows them)</Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField label="Memory (MiB)" {...field('memoryMb', { errorKey: 'limits.memoryMb' })} fullWidth />
          <TextField label="Open files" {...field('openFiles', { errorKey: 'limits.openFiles' })} fullWidth />
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
      </FormFields>
    </FormDialog>
  );
}
