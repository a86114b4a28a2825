import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { PlatformKeyDto, PlatformKeyScopes } from '../../../../contract/keys';

export interface PlatformKeyFormValues {
  name: string;
  scopes: PlatformKeyScopes;
  /** undefined: keep (edit only); null: never. */
  expiresAt: string | null | undefined;
}

const EXPIRY_CHOICES = [
  { value: 'keep', label: 'Keep the current expiry', days: undefined },
  { value: 'never', label: 'Never', days: null },
  { value: '7', label: 'In 7 days', days: 7 },
  { value: '30', label: 'In 30 days', days: 30 },
  { value: '90', label: 'In 90 days', days: 90 },
  { value: '365', label: 'In a year', days: 365 },
] as const;

/** Create (no `existing`) or edit a platform key: name, the servers it may call, its expiry. */
export function PlatformKeyFormDialog({
  existing,
  servers,
  onSubmit,
  onClose,
}: {
  existing?: PlatformKeyDto;
  servers: { id: string; name: string }[];
  /** Resolves to null on success, or to the error shown in the dialog. */
  onSubmit: (values: PlatformKeyFormValues) => Promise<string | null>;
  onClose: () => void;
}) {
  const titleId = useId();
  const [name, setName] = useState(existing?.name ?? '');
  const [allServers, setAllServers] = useState(existing?.scopes.allServers ?? true);
  const [serverIds, setServerIds] = useState<string[]>(existing?.scopes.serverIds ?? []);
  const [expiry, setExpiry] = useState<string>(existing ? 'keep' : 'never');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameMissing = name.trim() === '';
  const scopeMissing = !allServers && serverIds.length === 0;

  const submit = async () => {
    setBusy(true);
    setError(null);
    // undefined: keep the current expiry; null: never.
    const days = EXPIRY_CHOICES.find((c) => c.value === expiry)?.days;
    const expiresAt =
      days === undefined ? undefined : days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
    const failure = await onSubmit({
      name: name.trim(),
      scopes: { allServers, serverIds: allServers ? [] : serverIds },
      expiresAt,
    });
    setBusy(false);
    if (failure) setError(failure);
  };
  const toggle = (id: string) => setServerIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{existing ? `Edit ${existing.name}` : 'Create platform key'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            autoFocus
            slotProps={{ htmlInput: { maxLength: 100 } }}
            helperText="Which agent uses it, e.g. “CI research agent”"
          />
          <FormControlLabel
            control={<Switch checked={allServers} onChange={(e) => setAllServers(e.target.checked)} />}
            label="All servers of this workspace (also ones added later)"
          />
          {!allServers && (
            <FormGroup aria-label="Servers this key may call">
              {servers.length === 0 && (
                <Typography color="text.secondary">This workspace has no servers yet.</Typography>
              )}
              {servers.map((server) => (
                <FormControlLabel
                  key={server.id}
                  control={<Checkbox checked={serverIds.includes(server.id)} onChange={() => toggle(server.id)} />}
                  label={server.name}
                />
              ))}
            </FormGroup>
          )}
          <TextField select label="Expires" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRY_CHOICES.filter((c) => existing || c.value !== 'keep').map((c) => (
              <MenuItem key={c.value} value={c.value}>
                {c.label}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy || nameMissing || scopeMissing}>
          {busy ? 'Saving...' : existing ? 'Save' : 'Create key'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
