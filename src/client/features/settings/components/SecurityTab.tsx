import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PasswordForm } from './PasswordForm';
import { SignInsList } from './SignInsList';
import { IdentityProviderCard } from './IdentityProviderCard';

/** Security (flag show_personal_security): password, active sign-ins, the identity provider. */
export function SecurityTab() {
  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
            Password
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Changing it signs out every other device; this one stays signed in.
          </Typography>
          <PasswordForm />
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
            Where you are signed in
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Each sign-in of your account. A device signed out here must sign in again within 15 minutes.
          </Typography>
          <SignInsList />
        </CardContent>
      </Card>
      <IdentityProviderCard />
    </Stack>
  );
}
