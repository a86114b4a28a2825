import type { ReactNode, SyntheticEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

interface FormDialogProps {
  /** The title's element id: the dialog's accessible name. */
  titleId: string;
  title: string;
  busy: boolean;
  onSubmit: (event: SyntheticEvent) => Promise<void>;
  onClose: () => void;
  submitLabel: string;
  /** The submit button's text while saving. */
  busyLabel: string;
  /** Besides while busy, e.g. while a required field is blank. */
  submitDisabled?: boolean;
  /** An action left of Cancel (e.g. a test send). */
  extraAction?: ReactNode;
  children: ReactNode;
}

/**
 * The add / edit dialog around a form: the title, the fields, Cancel and the submit button. While
 * busy it cannot be closed (nor by Escape or a click outside) and every button is disabled.
 */
export function FormDialog({
  titleId,
  title,
  busy,
  onSubmit,
  onClose,
  submitLabel,
  busyLabel,
  submitDisabled = false,
  extraAction,
  children,
}: FormDialogProps) {
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          {extraAction}
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={submitDisabled || busy}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
