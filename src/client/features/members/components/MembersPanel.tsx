import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import type { MemberDto } from '../../../../contract/members';
import type { MemberRole, WorkspaceDto } from '../../../../contract/workspaces';
import { errorMessage, fieldErrors, isApiError } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../components/toast';
import { selectCurrentUser } from '../../auth/authSlice';
import { useChangeMemberRoleMutation } from '../memberRolesApi';
import { useAddMemberMutation, useGetMembersQuery, useRemoveMemberMutation } from '../membersApi';
import { AddMemberDialog, type AddMemberFailure, type AddMemberValues } from './AddMemberDialog';
import { MembersTable } from './MembersTable';
import { PendingInvitations } from './PendingInvitations';
import { RemoveMemberDialog } from './RemoveMemberDialog';

type Dialog = { kind: 'add' } | { kind: 'remove'; member: MemberDto } | null;

/** A 404 means "no account uses that email": said at the email field, where the user can fix it. */
function asAddFailure(error: unknown): AddMemberFailure {
  const fields = { ...fieldErrors(error) };
  if (isApiError(error) && error.status === 404 && !fields.email)
    fields.email = error.serverMessage ?? errorMessage(error);
  return { message: errorMessage(error), fields };
}

/**
 * The people of one workspace: the list, role changes, removal and invitations. Shown by /members
 * (the current workspace) and by the Members tab of /workspace/{id}/settings.
 */
export function MembersPanel({ workspace }: { workspace: WorkspaceDto }) {
  const { toast } = useToast();
  const user = useAppSelector(selectCurrentUser);
  const workspaceId = workspace.id;
  const canManage = workspace.role === 'owner' || workspace.role === 'admin';
  const members = useGetMembersQuery(workspaceId);
  const [addMember] = useAddMemberMutation();
  const [removeMember] = useRemoveMemberMutation();
  const [changeRole] = useChangeMemberRoleMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  const add = async (values: AddMemberValues) => {
    try {
      const answer = (await addMember({ workspaceId, body: values }).unwrap()) as unknown as
        MemberDto | { invitation: { email: string; role: string } };
      close();
      if ('invitation' in answer) {
        toast({
          title: 'Invitation sent',
          description: `${answer.invitation.email} is invited to ${workspace.name} as ${answer.invitation.role}; they join when they accept.`,
        });
      } else {
        toast({
          title: 'Member added',
          description: `${answer.fullName || answer.email} joined ${workspace.name} as ${answer.role}.`,
        });
      }
      return null;
    } catch (caught) {
      return asAddFailure(caught);
    }
  };

  const remove = (member: MemberDto) => async () => {
    try {
      await removeMember({ workspaceId, userId: member.userId }).unwrap();
      close();
      toast({
        title: 'Member removed',
        description: `${member.fullName || member.email} no longer has access to ${workspace.name}.`,
      });
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  const roleChange = async (member: MemberDto, role: MemberRole) => {
    if (role === member.role) return;
    try {
      await changeRole({ workspaceId, userId: member.userId, role }).unwrap();
      toast({ title: 'Role changed', description: `${member.fullName || member.email} is now ${role}.` });
    } catch (caught) {
      toast({ title: 'Role not changed', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  const list = members.currentData;
  return (
    <Box>
      {canManage && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
          <Button
            variant="contained"
            startIcon={<PersonAddAlt1OutlinedIcon />}
            onClick={() => setDialog({ kind: 'add' })}
          >
            Add member
          </Button>
        </Stack>
      )}
      {members.isError && !list && (
        <Alert severity="error" sx={{ mb: 3 }}>
          {errorMessage(members.error)}
        </Alert>
      )}
      {!list && !members.isError && <MembersSkeleton />}
      {list && (
        <MembersTable
          members={list}
          currentUserId={user?.id ?? null}
          onRemove={canManage ? (member) => setDialog({ kind: 'remove', member }) : undefined}
          onRoleChange={canManage ? (member, role) => void roleChange(member, role) : undefined}
          canGrantOwner={workspace.role === 'owner'}
        />
      )}
      {canManage && <PendingInvitations workspaceId={workspaceId} />}
      {dialog?.kind === 'add' && <AddMemberDialog onSubmit={add} onClose={close} />}
      {dialog?.kind === 'remove' && (
        <RemoveMemberDialog
          memberName={dialog.member.fullName || dialog.member.email}
          workspaceName={workspace.name}
          onConfirm={remove(dialog.member)}
          onClose={close}
        />
      )}
    </Box>
  );
}

function MembersSkeleton() {
  return (
    <Box aria-label="Loading members" sx={{ display: 'grid', gap: 1 }}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} variant="rounded" height={52} sx={{ borderRadius: 2 }} />
      ))}
    </Box>
  );
}
