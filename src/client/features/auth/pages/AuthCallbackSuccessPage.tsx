import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Box from '@mui/material/Box';
import { errorMessage } from '../../../api/apiError';
import { useAppDispatch } from '../../../app/hooks';
import { login } from '../session';
import { AuthLayout } from './AuthLayout';
import { AFTER_SIGN_IN_DEFAULT } from './returnPath';

/** Accepts a same-site path only, so the link cannot send the user to another site. */
function safeReturnPath(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : AFTER_SIGN_IN_DEFAULT;
}

/**
 * /auth/callback/success: an identity provider sign-in sends the browser here with the tokens in
 * the fragment or the query (access_token/refresh_token, or the camelCase names). They are stored, the profile is
 * loaded, and the user continues to ?redirect= or the dashboard.
 */
export default function AuthCallbackSuccessPage() {
  const [query] = useSearchParams();
  const { hash } = useLocation();
  // Toolscope's own provider sign-in puts the tokens in the fragment (never sent to a server, so
  // never in a log or a Referer); the query is still read for links that carry them there.
  const [params] = useState(() => {
    const fragment = new URLSearchParams(hash.slice(1));
    return fragment.has('access_token') ? fragment : query;
  });
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [signInFailure, setSignInFailure] = useState<string | null>(null);
  const started = useRef(false);
  const accessToken = params.get('access_token') ?? params.get('accessToken');
  const failure = accessToken ? signInFailure : 'The sign-in link did not include a token.';

  useEffect(() => {
    if (started.current || !accessToken) return;
    started.current = true;
    const refreshToken = params.get('refresh_token') ?? params.get('refreshToken') ?? '';
    dispatch(login({ accessToken, refreshToken }))
      .unwrap()
      .then(() => navigate(safeReturnPath(params.get('redirect')), { replace: true }))
      .catch((error: unknown) => setSignInFailure(errorMessage(error)));
  }, [accessToken, dispatch, navigate, params]);

  return (
    <AuthLayout title={failure ? 'Sign-in did not complete' : 'Signing you in'}>
      {failure ? (
        <Alert
          severity="error"
          action={
            <Button component={RouterLink} to="/login" color="inherit" size="small">
              Sign in
            </Button>
          }
        >
          {failure}
        </Alert>
      ) : (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
          <CircularProgress aria-label="Signing in" />
        </Box>
      )}
    </AuthLayout>
  );
}
