import { useState, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { CatalogDetail } from '../../../../contract/marketplace';
import { errorMessage, type FieldErrors } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../components/toast';
import { selectCurrentWorkspace } from '../../workspaces/workspaceSlice';
import { useConnectCatalogServerMutation } from '../marketplaceApi';
import { remoteInputs, resolveRemote } from '../runCommand';

/**
 * Connect: registers a remote entry as a tool server of the current workspace, then opens
 * /servers. Secrets typed here become the server's upstream headers, which the server stores
 * encrypted and never shows again (docs/marketplace.md).
 */
export function ConnectRemoteForm({ entry }: { entry: CatalogDetail }) {
  const navigate = useNavigate();
  const { toast } = useToast();
  const workspace = useAppSelector(selectCurrentWorkspace);
  const remotes = entry.server.remotes ?? [];
  const [remoteIndex, setRemoteIndex] = useState(() =>
    Math.max(
      0,
      remotes.findIndex((r) => r.type === 'streamable-http'),
    ),
  );
  const remote = remotes.at(remoteIndex);
  const inputs = remote ? remoteInputs(remote) : [];
  const [name, setName] = useState(entry.title);
  const [values, setValues] = useState<Partial<Record<string, string>>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [connect, state] = useConnectCatalogServerMutation();
  if (!remote) return null;

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Name is required';
    for (const input of inputs) if (input.required && !values[input.key]?.trim()) local[input.key] = 'Required';
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    if (!workspace) {
      setFailure('No workspace selected');
      return;
    }
    const { url, headers } = resolveRemote(remote, values);
    try {
      await connect({
        workspaceId: workspace.id,
        body: {
          url,
          name: name.trim(),
          description: entry.description,
          transport: remote.type,
          ...(Object.keys(headers).length ? { headers } : {}),
        },
      }).unwrap();
      toast({ title: 'Server connected', description: `${name.trim()} is now a tool server of ${workspace.name}.` });
      void navigate('/servers');
    } catch (caught) {
      setFailure(errorMessage(caught));
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-label={`Connect ${entry.title}`}>
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Stack spacing={2}>
        {remotes.length > 1 && (
          <TextField
            select
            label="Endpoint"
            value={remoteIndex}
            onChange={(e) => setRemoteIndex(Number(e.target.value))}
          >
            {remotes.map((r, i) => (
              <MenuItem key={r.url + r.type} value={i}>
                {`${r.type} · ${r.url}`}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          label="Name in this workspace"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name}
        />
        {inputs.map((input) => (
          <TextField
            key={input.key}
            label={input.label}
            type={input.secret ? 'password' : 'text'}
            autoComplete="off"
            required={input.required}
            value={values[input.key] ?? ''}
            onChange={(e) => setValues((v) => ({ ...v, [input.key]: e.target.value }))}
            error={Boolean(errors[input.key])}
            helperText={
              errors[input.key] ??
              (input.secret ? `${input.description} Stored encrypted, never shown again.` : input.description)
            }
          />
        ))}
        <Typography variant="body2" color="text.secondary">
          {workspace
            ? `Registers ${remote.url} in ${workspace.name}; agents then use its Toolscope proxy URL.`
            : 'Choose a workspace first.'}
        </Typography>
        <Box>
          <Button type="submit" variant="contained" disabled={state.isLoading || !workspace}>
            {state.isLoading ? 'Connecting…' : 'Connect'}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
