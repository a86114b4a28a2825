import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import { useLocation, useSearchParams } from 'react-router-dom';
import { env } from '../../../env';
import { useGetConfigQuery } from '../../flags/configApi';
import { signInProviderErrorText } from '../../../../contract/signInProviders';
import { returnPathFrom } from './returnPath';

/**
 * The identity providers the operator configured (docs/access.md), as "Sign in with {name}"
 * buttons under the password form, and the sentence of a provider sign-in that did not complete
 * (/login?sso_error=…). A button is a plain link: the sign-in is a browser navigation through
 * the provider and back, not a call.
 */
export function ProviderSignIn() {
  const providers = useGetConfigQuery().data?.signInProviders ?? [];
  const [params] = useSearchParams();
  const location = useLocation();
  const failure = signInProviderErrorText(params.get('sso_error'));
  const redirect = encodeURIComponent(returnPathFrom(location.state));
  if (providers.length === 0 && !failure) return null;
  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {providers.length > 0 && <Divider>or</Divider>}
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="outlined"
          size="large"
          href={`${env.apiBase}${provider.startUrl}?redirect=${redirect}`}
        >
          Sign in with {provider.name}
        </Button>
      ))}
    </Box>
  );
}
