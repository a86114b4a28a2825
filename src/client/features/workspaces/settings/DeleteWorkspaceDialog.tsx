import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

interface DeleteWorkspaceDialogProps {
  workspaceName: string;
  /** Resolves to null on success, or to the error text shown in the dialog. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
}

/** Deleting cannot be undone: the owner types the workspace's name to enable the button. */
export function DeleteWorkspaceDialog({ workspaceName, onConfirm, onClose }: DeleteWorkspaceDialogProps) {
  const titleId = useId();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = typed.trim() === workspaceName.trim();
  const confirm = async () => {
    if (!matches) return;
    setBusy(true);
    setError(null);
    const failure = await onConfirm();
    setBusy(false);
    if (failure) setError(failure);
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>Delete workspace</DialogTitle>
      <DialogContent>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <DialogContentText sx={{ mb: 2 }}>
          {`This deletes ${workspaceName} with its tool servers, schemas, sessions, recorded calls and keys, for every member. It cannot be undone.`}
        </DialogContentText>
        <TextField
          label={`Type ${workspaceName} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          fullWidth
          autoFocus
          autoComplete="off"
          onKeyDown={(e) => {
            if (e.key === 'Enter') void confirm();
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={() => void confirm()} disabled={!matches || busy}>
          {busy ? 'Deleting…' : 'Delete workspace'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
