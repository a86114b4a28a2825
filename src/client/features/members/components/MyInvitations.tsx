import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { errorMessage } from '../../../api/apiError';
import { useAppDispatch } from '../../../app/hooks';
import { useToast } from '../../../components/toast';
import { switchWorkspace } from '../../workspaces/workspaceSlice';
import { VerifyEmailNotice } from './VerifyEmailNotice';
import {
  useAcceptInvitationMutation,
  useDeclineInvitationMutation,
  useGetMyInvitationsQuery,
  type MyInvitation,
} from '../memberRolesApi';

/**
 * The signed-in user's pending invitations, each with Accept and Decline. Accepting switches to
 * the workspace joined. `workspaceId` narrows the list to one workspace's invitation.
 */
export function MyInvitations({
  workspaceId,
  onAccepted,
}: {
  workspaceId?: string;
  onAccepted?: (workspaceId: string) => void;
}) {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const mine = useGetMyInvitationsQuery();
  const [accept] = useAcceptInvitationMutation();
  const [decline] = useDeclineInvitationMutation();
  const invitations = (mine.data ?? []).filter((i) => !workspaceId || i.workspaceId === workspaceId);
  // Invitations of an unverified address are not listed (the server keeps them until it is proved).
  if (invitations.length === 0) return workspaceId ? null : <VerifyEmailNotice />;

  const answer = async (invitation: MyInvitation, yes: boolean) => {
    try {
      if (yes) {
        await accept(invitation.id).unwrap();
        await dispatch(switchWorkspace(invitation.workspaceId));
        toast({
          title: 'Invitation accepted',
          description: `You joined ${invitation.workspaceName} as ${invitation.role}.`,
        });
        onAccepted?.(invitation.workspaceId);
      } else {
        await decline(invitation.id).unwrap();
        toast({ title: 'Invitation declined', description: `You did not join ${invitation.workspaceName}.` });
      }
    } catch (caught) {
      toast({ title: 'Could not answer the invitation', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  return (
    <Stack spacing={1.5} sx={{ mb: 3 }} aria-label="Your invitations">
      {invitations.map((invitation) => (
        <Alert
          key={invitation.id}
          severity="info"
          action={
            <Stack direction="row" spacing={1}>
              <Button color="inherit" size="small" onClick={() => void answer(invitation, false)}>
                Decline
              </Button>
              <Button variant="contained" size="small" onClick={() => void answer(invitation, true)}>
                Accept
              </Button>
            </Stack>
          }
        >
          {`${invitation.invitedByName} invited you to join ${invitation.workspaceName} as ${invitation.role}.`}
        </Alert>
      ))}
    </Stack>
  );
}
