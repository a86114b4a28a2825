import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

interface DeleteServerDialogProps {
  serverName: string;
  /** Resolves to null on success, or to the error text. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
}

/** Asks before removing a server: its proxy URL stops working for every agent using it. */
export function DeleteServerDialog({ serverName, onConfirm, onClose }: DeleteServerDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    const failure = await onConfirm();
    setBusy(false);
    if (failure) setError(failure);
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="delete-server-title" maxWidth="xs" fullWidth>
      <DialogTitle id="delete-server-title">Delete {serverName}?</DialogTitle>
      <DialogContent>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <DialogContentText>
          Its proxy URL stops working at once, agents pointed at it lose these tools, and its recorded sessions, tool calls and schemas are deleted with it.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Deleting...' : 'Delete server'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
