import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEmailVerification } from '../../auth/useEmailVerification';

/**
 * Where invitations are answered: an account whose address is not verified sees why none are
 * listed (the server keeps them until the address is proved) and can have the link mailed again.
 * Nothing for a verified account.
 */
export function VerifyEmailNotice() {
  const { needsVerification, email, resend, sending } = useEmailVerification();
  if (!needsVerification) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 3 }}
      action={
        <Button color="inherit" size="small" disabled={sending} onClick={() => void resend()}>
          {sending ? 'Sending...' : 'Send the link again'}
        </Button>
      }
    >
      {`Verify your email address to see and accept invitations. We sent a link to ${email}.`}
    </Alert>
  );
}
