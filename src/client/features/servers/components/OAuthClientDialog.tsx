import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { UpstreamOAuthPaths } from '../../../../contract/upstreamOAuth';
import { CopyButton } from '../../../components/CopyButton';

interface OAuthClientDialogProps {
  serverName: string;
  onCancel: () => void;
  onSubmit: (client: { clientId: string; clientSecret?: string }) => void;
}

/**
 * An authorization server that registers no clients on its own: the admin registers Toolscope
 * there by hand (with the redirect URI shown here) and enters the client it got.
 */
export function OAuthClientDialog({ serverName, onCancel, onSubmit }: OAuthClientDialogProps) {
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const redirectUri = `${window.location.origin}${UpstreamOAuthPaths.callback}`;
  return (
    <Dialog open onClose={onCancel} aria-labelledby="oauth-client-title" fullWidth maxWidth="sm">
      <DialogTitle id="oauth-client-title">Client for {serverName}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            This server&apos;s authorization server does not register clients on its own. Register Toolscope there with
            this redirect URI, then enter the client ID (and secret, if it gave one).
          </DialogContentText>
          <TextField
            label="Redirect URI"
            value={redirectUri}
            slotProps={{
              input: { readOnly: true, endAdornment: <CopyButton text={redirectUri} label="Copy redirect URI" /> },
            }}
          />
          <TextField
            label="Client ID"
            required
            value={clientId}
            onChange={(event) => setClientId(event.target.value)}
            autoFocus
          />
          <TextField
            label="Client secret"
            type="password"
            autoComplete="off"
            helperText="Leave empty for a public client (PKCE only). Stored encrypted, never shown again."
            value={clientSecret}
            onChange={(event) => setClientSecret(event.target.value)}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          variant="contained"
          disabled={clientId.trim() === ''}
          onClick={() => onSubmit({ clientId: clientId.trim(), clientSecret: clientSecret || undefined })}
        >
          Connect
        </Button>
      </DialogActions>
    </Dialog>
  );
}
