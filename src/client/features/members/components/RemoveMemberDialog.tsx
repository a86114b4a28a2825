import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

interface RemoveMemberDialogProps {
  memberName: string;
  workspaceName: string;
  /** Resolves to null on success, or to the error text. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
}

/** Asks before taking someone out of the workspace: they lose access at once. */
export function RemoveMemberDialog({ memberName, workspaceName, onConfirm, onClose }: RemoveMemberDialogProps) {
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
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="remove-member-title" maxWidth="xs" fullWidth>
      <DialogTitle id="remove-member-title">Remove {memberName}?</DialogTitle>
      <DialogContent>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <DialogContentText>
          {memberName} loses access to {workspaceName} at once: its servers, sessions and analytics. You can add them again later.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Removing...' : 'Remove member'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
