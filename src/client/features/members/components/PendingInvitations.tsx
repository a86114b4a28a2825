import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../../api/apiError';
import { RelativeTime } from '../../../components/RelativeTime';
import { useToast } from '../../../components/toast';
import {
  useCancelInvitationMutation,
  useGetPendingInvitationsQuery,
  useResendInvitationMutation,
  type PendingInvitation,
} from '../memberRolesApi';

/** Invitations not answered yet, with resend and cancel (owners and admins). */
export function PendingInvitations({ workspaceId }: { workspaceId: string }) {
  const { toast } = useToast();
  const pending = useGetPendingInvitationsQuery(workspaceId);
  const [cancel] = useCancelInvitationMutation();
  const [resend] = useResendInvitationMutation();
  // Nothing to show until the invitations API answers with some (it may not exist on an older server).
  if (!pending.data || pending.data.length === 0) return null;

  const act = async (invitation: PendingInvitation, kind: 'resend' | 'cancel') => {
    try {
      if (kind === 'resend') await resend({ workspaceId, email: invitation.email, role: invitation.role }).unwrap();
      else await cancel({ workspaceId, invitationId: invitation.id }).unwrap();
      toast({
        title: kind === 'resend' ? 'Invitation sent again' : 'Invitation cancelled',
        description: invitation.email,
      });
    } catch (caught) {
      toast({
        title: kind === 'resend' ? 'Could not resend' : 'Could not cancel',
        description: errorMessage(caught),
        variant: 'destructive',
      });
    }
  };

  return (
    <Paper variant="outlined" sx={{ borderRadius: 3, p: 2, mt: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Pending invitations
      </Typography>
      <List aria-label="Pending invitations" disablePadding>
        {pending.data.map((invitation) => (
          <ListItem key={invitation.id} divider sx={{ px: 0, flexWrap: 'wrap', gap: 1 }}>
            <ListItemText
              sx={{ minWidth: 0 }}
              primary={<span style={{ overflowWrap: 'anywhere' }}>{invitation.email}</span>}
              secondary={
                <>
                  {`${invitation.role} · invited by ${invitation.invitedByName} `}
                  <RelativeTime value={invitation.createdAt} />
                </>
              }
            />
            <Stack direction="row" spacing={1}>
              <Button
                size="small"
                onClick={() => void act(invitation, 'resend')}
                aria-label={`Resend invitation to ${invitation.email}`}
              >
                Resend
              </Button>
              <Button
                size="small"
                color="error"
                onClick={() => void act(invitation, 'cancel')}
                aria-label={`Cancel invitation to ${invitation.email}`}
              >
                Cancel
              </Button>
            </Stack>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
