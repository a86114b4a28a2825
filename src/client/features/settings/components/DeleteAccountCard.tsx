import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../../api/apiError';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { clearSession } from '../../auth';
import { useDeleteAccountMutation } from '../settingsApi';

/** Profile → Delete account: the account, its personal workspace and the workspaces only it uses, with all their data. */
export function DeleteAccountCard() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [deleteAccount] = useDeleteAccountMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const close = () => {
    setOpen(false);
    setPassword('');
  };
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
          Delete account
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Deletes your account, your personal workspace and every workspace only you use — servers, secrets, sessions,
          messages, payloads and analytics. Team workspaces others use must be deleted or handed over first.
        </Typography>
        <Button color="error" variant="outlined" onClick={() => setOpen(true)}>
          Delete account
        </Button>
      </CardContent>
      {open && (
        <ConfirmDestructiveDialog
          title="Delete your account?"
          confirmLabel="Delete account"
          busyLabel="Deleting…"
          onClose={close}
          onConfirm={async () => {
            try {
              await deleteAccount({ password }).unwrap();
            } catch (error) {
              return errorMessage(error);
            }
            clearSession(dispatch);
            void navigate('/login');
            return null;
          }}
          after={
            <TextField
              label="Your password"
              type="password"
              autoComplete="current-password"
              fullWidth
              margin="dense"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          }
        >
          This cannot be undone. Export what you want to keep first (Workspace Settings → Data).
        </ConfirmDestructiveDialog>
      )}
    </Card>
  );
}
