import { useId, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

export interface ConfirmDestructiveDialogProps {
  title: string;
  /** What the action destroys, said plainly. */
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** Resolves to null on success, or to the error text shown in the dialog. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
  /** Inputs shown under the text (a reason field). */
  after?: ReactNode;
}

/** Asks before an action that cannot be undone; stays open with the error when it fails. */
export function ConfirmDestructiveDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  onConfirm,
  onClose,
  after,
}: ConfirmDestructiveDialogProps) {
  const titleId = useId();
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
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <DialogContentText>{children}</DialogContentText>
        {after}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={() => void confirm()} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
