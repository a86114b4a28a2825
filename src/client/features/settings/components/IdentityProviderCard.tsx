import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../../api/apiError';
import { formatDateTime, useDateDisplay } from '../../../components/dates/dateDisplay';
import { useToast } from '../../../components/toast';
import { useGetConfigQuery } from '../../flags/configApi';
import { useGetIdentitiesQuery, useLinkIdentityMutation } from '../settingsApi';

const RETURN_PATH = '/settings?tab=security';

/**
 * Sign-in with the operator's identity provider (docs/access.md): the identities linked to this
 * account, and linking one. Linking is how a password account starts signing in with the
 * provider: being signed in here proves the account, the provider proves the identity.
 */
export function IdentityProviderCard() {
  const provider = useGetConfigQuery().data?.signInProviders[0];
  const identities = useGetIdentitiesQuery(undefined, { skip: !provider });
  const [link, linking] = useLinkIdentityMutation();
  const [params] = useSearchParams();
  const { toast } = useToast();
  useDateDisplay();
  if (!provider) return null;

  const connect = async () => {
    try {
      const { authorizationUrl } = await link({ returnPath: RETURN_PATH }).unwrap();
      window.location.assign(authorizationUrl);
    } catch (caught) {
      toast({ title: `Could not connect ${provider.name}`, description: errorMessage(caught), variant: 'destructive' });
    }
  };
  const linked = identities.data ?? [];
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
          Sign in with {provider.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Connect your {provider.name} identity to sign in to this account with it.
        </Typography>
        {params.get('sso_linked') === '1' && (
          <Alert severity="success" sx={{ mb: 1 }}>
            {provider.name} is connected: you can sign in with it from now on.
          </Alert>
        )}
        {linked.length > 0 ? (
          <List dense aria-label={`${provider.name} identities`}>
            {linked.map((identity) => (
              <ListItem key={`${identity.email}-${identity.linkedAt}`} disableGutters>
                <ListItemText
                  primary={identity.email}
                  secondary={`Connected ${formatDateTime(identity.linkedAt)}${
                    identity.lastSignInAt ? ` · last sign-in ${formatDateTime(identity.lastSignInAt)}` : ''
                  }`}
                />
              </ListItem>
            ))}
          </List>
        ) : (
          <Button
            variant="outlined"
            onClick={() => void connect()}
            disabled={linking.isLoading || identities.isLoading}
          >
            Connect {provider.name}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
