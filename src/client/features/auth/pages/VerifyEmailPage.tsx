import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { errorMessage, isApiError } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { useLazyGetMeQuery, useVerifyEmailMutation } from '../authApi';
import { selectIsSignedIn } from '../authSlice';
import { useEmailVerification } from '../useEmailVerification';
import { AuthLayout } from './AuthLayout';

type Outcome = { state: 'working' } | { state: 'verified'; message: string } | { state: 'failed'; message: string };

/**
 * /verify-email?token=…: the page the link mailed at sign-up opens. It verifies at once (the token
 * is the credential, so it works in any browser, signed in or not) and says what happened; a
 * signed-in user whose link failed can ask for a new one here.
 */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const signedIn = useAppSelector(selectIsSignedIn);
  const [verifyEmail] = useVerifyEmailMutation();
  const [refreshMe] = useLazyGetMeQuery();
  const { resend, sending } = useEmailVerification();
  const [outcome, setOutcome] = useState<Outcome>(
    token
      ? { state: 'working' }
      : { state: 'failed', message: 'This page needs the link from the verification email.' },
  );
  // A link works once: React's development double effect must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    verifyEmail({ token })
      .unwrap()
      .then((result) => {
        setOutcome({ state: 'verified', message: result.message });
        // The account shown in this tab learns it is verified (invitations appear).
        if (signedIn) void refreshMe();
      })
      // The server's own words about the link (like the reset page), not the generic "API Error 400: …".
      .catch((error: unknown) =>
        setOutcome({
          state: 'failed',
          message: (isApiError(error) && error.serverMessage) || errorMessage(error),
        }),
      );
  }, [token, signedIn, verifyEmail, refreshMe]);

  const next = signedIn ? { to: '/members', label: 'See your invitations' } : { to: '/login', label: 'Sign in' };
  return (
    <AuthLayout title="Verify your email address">
      {outcome.state === 'working' && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={20} />
          <span>Verifying your email address…</span>
        </Stack>
      )}
      {outcome.state === 'verified' && (
        <Alert
          severity="success"
          action={
            <Button component={RouterLink} to={next.to} color="inherit" size="small">
              {next.label}
            </Button>
          }
        >
          {outcome.message}
        </Alert>
      )}
      {outcome.state === 'failed' && (
        <Stack spacing={2}>
          <Alert severity="error">{outcome.message}</Alert>
          {signedIn ? (
            <Button size="small" disabled={sending} onClick={() => void resend()}>
              {sending ? 'Sending...' : 'Send the link again'}
            </Button>
          ) : (
            <Link component={RouterLink} to="/login">
              Sign in to get a new link
            </Link>
          )}
        </Stack>
      )}
    </AuthLayout>
  );
}
