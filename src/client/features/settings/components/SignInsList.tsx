import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DevicesOutlinedIcon from '@mui/icons-material/DevicesOutlined';
import type { SignInDto } from '../../../../contract/account';
import { errorMessage } from '../../../api/apiError';
import { formatDateTime, useDateDisplay } from '../../../components/dates/dateDisplay';
import { RelativeTime } from '../../../components/RelativeTime';
import { useToast } from '../../../components/toast';
import { useGetSignInsQuery, useRevokeOtherSignInsMutation, useRevokeSignInMutation } from '../settingsApi';

/** Active sign-ins (refresh-token families): revoke one, or every one but this. */
export function SignInsList() {
  const { toast } = useToast();
  const signIns = useGetSignInsQuery();
  const [revoke] = useRevokeSignInMutation();
  const [revokeOthers, othersState] = useRevokeOtherSignInsMutation();
  useDateDisplay();

  const revokeOne = async (signIn: SignInDto) => {
    try {
      await revoke(signIn.id).unwrap();
      toast({ title: 'Signed out', description: `${signIn.device} is signed out.` });
    } catch (caught) {
      toast({ title: 'Could not sign out that device', description: errorMessage(caught), variant: 'destructive' });
    }
  };
  const signOutEverywhereElse = async () => {
    try {
      const { revoked } = await revokeOthers().unwrap();
      toast({
        title: 'Signed out everywhere else',
        description: revoked === 1 ? '1 other sign-in was ended.' : `${revoked} other sign-ins were ended.`,
      });
    } catch (caught) {
      toast({ title: 'Could not sign out other devices', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  if (signIns.isError && !signIns.data) return <Alert severity="error">{errorMessage(signIns.error)}</Alert>;
  if (!signIns.data) return <Skeleton variant="rounded" height={120} aria-label="Loading sign-ins" />;
  const others = signIns.data.filter((s) => !s.current);
  return (
    <Box>
      <List aria-label="Active sign-ins" disablePadding>
        {signIns.data.map((signIn) => (
          <ListItem
            key={signIn.id}
            divider
            sx={{ px: 0, gap: 2, flexWrap: 'wrap' }}
            secondaryAction={
              signIn.current ? undefined : (
                <Button
                  size="small"
                  color="error"
                  variant="outlined"
                  onClick={() => void revokeOne(signIn)}
                  aria-label={`Sign out ${signIn.device} (${signIn.ip ?? 'unknown address'})`}
                >
                  Sign out
                </Button>
              )
            }
          >
            <DevicesOutlinedIcon color="action" />
            <ListItemText
              sx={{ minWidth: 0, pr: 12 }}
              primary={
                <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center' }}>
                  <span>{signIn.device}</span>
                  {signIn.current && <Chip size="small" color="primary" label="This device" />}
                </Stack>
              }
              secondary={
                <Typography variant="body2" color="text.secondary" component="span" sx={{ overflowWrap: 'anywhere' }}>
                  {`${signIn.ip ?? 'Unknown address'} · signed in ${formatDateTime(signIn.createdAt)} · last used `}
                  <RelativeTime value={signIn.lastUsedAt} />
                </Typography>
              }
            />
          </ListItem>
        ))}
      </List>
      <Button
        sx={{ mt: 2 }}
        variant="outlined"
        color="error"
        disabled={others.length === 0 || othersState.isLoading}
        onClick={() => void signOutEverywhereElse()}
      >
        Sign out everywhere else
      </Button>
    </Box>
  );
}
