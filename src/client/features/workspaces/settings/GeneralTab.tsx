import { useState, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WorkspaceDto } from '../../../../contract/workspaces';
import { errorMessage, fieldErrors, type FieldErrors } from '../../../api/apiError';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { useToast } from '../../../components/toast';
import { useEditedText } from '../../../components/useEditedCopy';
import { useLeaveWorkspaceMutation } from '../../members';
import { switchWorkspace, selectCurrentWorkspaceId } from '../workspaceSlice';
import { useDeleteWorkspaceMutation, useUpdateWorkspaceMutation } from '../workspaceSettingsApi';
import { useGetWorkspacesQuery } from '../workspacesApi';
import { DeleteWorkspaceDialog } from './DeleteWorkspaceDialog';

/** General: name, description and type; delete (owner, not personal) and leave. */
export function GeneralTab({ workspace }: { workspace: WorkspaceDto }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { toast } = useToast();
  const currentId = useAppSelector(selectCurrentWorkspaceId);
  const workspaces = useGetWorkspacesQuery();
  const [update, updateState] = useUpdateWorkspaceMutation();
  const [remove] = useDeleteWorkspaceMutation();
  const [leave] = useLeaveWorkspaceMutation();
  // The fields follow the workspace when it changes (saved, renamed elsewhere).
  const [name, setName] = useEditedText(workspace.name);
  const [description, setDescription] = useEditedText(workspace.description);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [dialog, setDialog] = useState<'delete' | 'leave' | null>(null);

  const canEdit = workspace.role === 'owner' || workspace.role === 'admin';
  const isPersonal = workspace.workspaceType === 'personal';
  const unchanged = name.trim() === workspace.name && description.trim() === workspace.description;

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setErrors({ name: 'Workspace name is required' });
      return;
    }
    setErrors({});
    try {
      await update({
        workspaceId: workspace.id,
        body: { name: name.trim(), description: description.trim() },
      }).unwrap();
      toast({ title: 'Workspace updated', description: `${name.trim()} is saved.` });
    } catch (caught) {
      setErrors(fieldErrors(caught));
      toast({ title: 'Workspace not saved', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  /** After the workspace is gone for this user: another one becomes current, the app goes on there. */
  const moveAway = async () => {
    const next =
      (workspaces.data ?? []).find((w) => w.id !== workspace.id && w.workspaceType === 'personal') ??
      (workspaces.data ?? []).find((w) => w.id !== workspace.id);
    if (next && currentId === workspace.id) await dispatch(switchWorkspace(next.id));
    void navigate('/dashboard');
  };

  const confirmDelete = async () => {
    try {
      await remove(workspace.id).unwrap();
      toast({ title: 'Workspace deleted', description: `${workspace.name} and everything in it is gone.` });
      await moveAway();
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };
  const confirmLeave = async () => {
    try {
      await leave(workspace.id).unwrap();
      toast({ title: 'You left the workspace', description: `You no longer have access to ${workspace.name}.` });
      await moveAway();
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
            <Typography variant="h6" component="h2">
              General
            </Typography>
            <Chip size="small" label={isPersonal ? 'Personal workspace' : 'Team workspace'} variant="outlined" />
            <Chip size="small" label={`You are ${workspace.role}`} variant="outlined" />
          </Stack>
          <Box
            component="form"
            noValidate
            onSubmit={(event) => void save(event)}
            aria-label="Workspace details"
            sx={{ maxWidth: 560 }}
          >
            <Stack spacing={2}>
              <TextField
                label="Name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                disabled={!canEdit}
                error={Boolean(errors.name)}
                helperText={errors.name}
                required
              />
              <TextField
                label="Description"
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                disabled={!canEdit}
                multiline
                minRows={2}
                error={Boolean(errors.description)}
                helperText={errors.description}
              />
              {canEdit ? (
                <Box>
                  <Button type="submit" variant="contained" disabled={unchanged || updateState.isLoading}>
                    {updateState.isLoading ? 'Saving…' : 'Save changes'}
                  </Button>
                </Box>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  Only owners and admins can change the name and description.
                </Typography>
              )}
            </Stack>
          </Box>
        </CardContent>
      </Card>
      {!isPersonal && (
        <Card sx={{ borderColor: 'error.dark' }} variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              Danger zone
            </Typography>
            <Stack spacing={2}>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={2}
                sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
              >
                <Typography variant="body2" color="text.secondary">
                  Leave this workspace. You lose access until someone invites you again.
                </Typography>
                <Button color="error" variant="outlined" onClick={() => setDialog('leave')}>
                  Leave workspace
                </Button>
              </Stack>
              {workspace.role === 'owner' && (
                <Stack
                  direction={{ xs: 'column', sm: 'row' }}
                  spacing={2}
                  sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
                >
                  <Typography variant="body2" color="text.secondary">
                    Delete the workspace with its servers, sessions and keys, for everyone.
                  </Typography>
                  <Button color="error" variant="contained" onClick={() => setDialog('delete')}>
                    Delete workspace
                  </Button>
                </Stack>
              )}
            </Stack>
          </CardContent>
        </Card>
      )}
      {isPersonal && (
        <Typography variant="body2" color="text.secondary">
          Your personal workspace cannot be deleted or left.
        </Typography>
      )}
      {dialog === 'delete' && (
        <DeleteWorkspaceDialog
          workspaceName={workspace.name}
          onConfirm={confirmDelete}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'leave' && (
        <ConfirmDestructiveDialog
          title="Leave workspace"
          confirmLabel="Leave"
          busyLabel="Leaving…"
          onConfirm={confirmLeave}
          onClose={() => setDialog(null)}
        >
          {`You will no longer see ${workspace.name} or anything in it.`}
        </ConfirmDestructiveDialog>
      )}
    </Stack>
  );
}
