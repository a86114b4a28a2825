import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { WORKSPACE_KEY_NAME, type WorkspaceKeyDto } from '../../../../contract/keys';

export interface WorkspaceKeyValues {
  name: string;
  value: string;
  description: string;
  /** Where the key may be sent (host or host:port); a server elsewhere cannot reference it. */
  allowedHosts: string[];
}

/** "api.github.com, 10.0.0.5:8443" → the list the API takes. */
export function parseHostList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
}

/** Add a workspace key, or rotate one (`existing`: only a new value). Values are never shown back. */
export function WorkspaceKeyDialog({
  existing,
  onSubmit,
  onClose,
}: {
  existing?: WorkspaceKeyDto;
  onSubmit: (values: WorkspaceKeyValues) => Promise<string | null>;
  onClose: () => void;
}) {
  const titleId = useId();
  const [name, setName] = useState(existing?.name ?? '');
  const [value, setValue] = useState('');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [hosts, setHosts] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameValid = WORKSPACE_KEY_NAME.test(name.trim());
  const submit = async () => {
    setBusy(true);
    setError(null);
    const failure = await onSubmit({
      name: name.trim(),
      value,
      description: description.trim(),
      allowedHosts: parseHostList(hosts),
    });
    setBusy(false);
    if (failure) setError(failure);
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{existing ? `Rotate ${existing.name}` : 'Add workspace key'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          {!existing && (
            <TextField
              label="Name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              autoFocus
              error={name !== '' && !nameValid}
              helperText={`Referenced in server headers as {{key:${name.trim() || 'NAME'}}}`}
            />
          )}
          <TextField
            label={existing ? 'New value' : 'Value'}
            type="password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            required
            autoFocus={!!existing}
            autoComplete="off"
            helperText="Stored encrypted; it is never shown again."
          />
          {!existing && (
            <TextField
              label="Allowed hosts"
              value={hosts}
              onChange={(e) => setHosts(e.target.value)}
              placeholder="api.github.com, 10.0.0.5:8443"
              helperText="The hosts of the servers that may receive this key, comma-separated (host, or host:port for one port). Only a workspace owner can change them later."
            />
          )}
          {!existing && (
            <TextField
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={busy || value === '' || (!existing && !nameValid)}
        >
          {busy ? 'Saving...' : existing ? 'Rotate' : 'Add key'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
