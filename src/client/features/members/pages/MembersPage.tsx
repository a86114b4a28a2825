import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import type { MemberDto } from '../../../../contract/members';
import { errorMessage, fieldErrors, isApiError } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';
import { useToast } from '../../../components/toast';
import { selectCurrentUser } from '../../auth/authSlice';
import { useGetWorkspacesQuery } from '../../workspaces/workspacesApi';
import { selectCurrentWorkspace, selectCurrentWorkspaceId } from '../../workspaces/workspaceSlice';
import { AddMemberDialog, type AddMemberFailure, type AddMemberValues } from '../components/AddMemberDialog';
import { MembersTable } from '../components/MembersTable';
import { RemoveMemberDialog } from '../components/RemoveMemberDialog';
import { useAddMemberMutation, useGetMembersQuery, useRemoveMemberMutation } from '../membersApi';

type Dialog = { kind: 'add' } | { kind: 'remove'; member: MemberDto } | null;

/** A 404 means "no account uses that email": said at the email field, where the user can fix it. */
function asAddFailure(error: unknown): AddMemberFailure {
  const fields = { ...fieldErrors(error) };
  if (isApiError(error) && error.status === 404 && !fields.email) fields.email = error.serverMessage ?? errorMessage(error);
  return { message: errorMessage(error), fields };
}

/** Members: who shares this workspace and in what role; owners and admins add and remove people. */
export default function MembersPage() {
  const { toast } = useToast();
  const user = useAppSelector(selectCurrentUser);
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  // The role comes from the workspace list; subscribing keeps it loaded even outside the shell.
  useGetWorkspacesQuery(undefined, { skip: !user });
  const workspace = useAppSelector(selectCurrentWorkspace);
  const canManage = workspace?.role === 'owner' || workspace?.role === 'admin';
  const members = useGetMembersQuery(workspaceId ?? '', { skip: !user || !workspaceId });
  const [addMember] = useAddMemberMutation();
  const [removeMember] = useRemoveMemberMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  const add = async (values: AddMemberValues) => {
    if (!workspaceId) return { message: 'Choose a workspace first', fields: {} };
    try {
      const member = await addMember({ workspaceId, body: values }).unwrap();
      close();
      toast({ title: 'Member added', description: `${member.fullName || member.email} joined ${workspace?.name ?? 'the workspace'} as ${member.role}.` });
      return null;
    } catch (caught) {
      return asAddFailure(caught);
    }
  };

  const remove = (member: MemberDto) => async () => {
    if (!workspaceId) return 'Choose a workspace first';
    try {
      await removeMember({ workspaceId, userId: member.userId }).unwrap();
      close();
      toast({ title: 'Member removed', description: `${member.fullName || member.email} no longer has access to ${workspace?.name ?? 'the workspace'}.` });
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  const list = members.currentData;
  return (
    <>
      <PageHeader
        title="Members"
        subtitle={workspace ? `The people who share ${workspace.name}` : 'The people who share this workspace'}
        actions={
          canManage ? (
            <Button variant="contained" startIcon={<PersonAddAlt1OutlinedIcon />} onClick={() => setDialog({ kind: 'add' })}>
              Add member
            </Button>
          ) : undefined
        }
      />
      {!workspaceId && <Alert severity="info">Choose or create a workspace to see its members.</Alert>}
      {members.isError && !list && (
        <Alert severity="error" sx={{ mb: 3 }}>
          {errorMessage(members.error)}
        </Alert>
      )}
      {workspaceId && !list && !members.isError && <MembersSkeleton />}
      {list && <MembersTable members={list} currentUserId={user?.id ?? null} onRemove={canManage ? (member) => setDialog({ kind: 'remove', member }) : undefined} />}
      {dialog?.kind === 'add' && <AddMemberDialog onSubmit={add} onClose={close} />}
      {dialog?.kind === 'remove' && (
        <RemoveMemberDialog
          memberName={dialog.member.fullName || dialog.member.email}
          workspaceName={workspace?.name ?? 'this workspace'}
          onConfirm={remove(dialog.member)}
          onClose={close}
        />
      )}
    </>
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
