import { useEffect, useMemo, type SyntheticEvent } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { CanCreateWorkspaceResult } from '../../../contract/billing';
import type { WorkspaceType } from '../../../contract/workspaces';
import { useAppDispatch } from '../../app/hooks';
import { useToast } from '../../components/toast';
import type { CreateWorkspaceRequest } from './createWorkspaceInput';
import { createWorkspaceMachine, type CreatedWorkspace } from './createWorkspaceMachine';
import { CreateWorkspaceText } from './createWorkspaceText';
import { createWorkspaceView } from './createWorkspaceView';
import { WorkspaceTypeField } from './WorkspaceTypeField';
import { useCreateWorkspaceMutation, useLazyCanCreateWorkspaceQuery } from './workspacesApi';
import { switchWorkspace } from './workspaceSlice';

interface CreateWorkspaceDialogProps {
  /** The machine has closed (dismissed or created): the owner unmounts the dialog. */
  onClose: () => void;
  /** The plan refuses another workspace and the user asked to upgrade. */
  onUpgradeRequested: () => void;
}

/** SPEC §4 "Create workspace": renders createWorkspaceMachine, which checks the limit on opening. */
export function CreateWorkspaceDialog({ onClose, onUpgradeRequested }: CreateWorkspaceDialogProps) {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const [checkLimit] = useLazyCanCreateWorkspaceQuery();
  const [createWorkspace] = useCreateWorkspaceMutation();

  const machine = useMemo(
    () =>
      createWorkspaceMachine.provide({
        actors: {
          checkLimit: fromPromise<CanCreateWorkspaceResult, { type: WorkspaceType }>(({ input }) =>
            checkLimit(input.type).unwrap(),
          ),
          createWorkspace: fromPromise<CreatedWorkspace, CreateWorkspaceRequest>(({ input }) =>
            createWorkspace(input).unwrap(),
          ),
        },
      }),
    [checkLimit, createWorkspace],
  );
  const [snapshot, send, actorRef] = useMachine(machine);

  useEffect(() => {
    const subscriptions = [
      actorRef.on('workspaceCreated', ({ workspace }) => void dispatch(switchWorkspace(workspace.id))),
      actorRef.on('toast', ({ title, description, variant }) => toast({ title, description, variant })),
      actorRef.on('upgradeRequested', onUpgradeRequested),
      actorRef.on('closed', onClose),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actorRef, dispatch, toast, onUpgradeRequested, onClose]);

  const view = createWorkspaceView(snapshot);
  const { form } = snapshot.context;
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    send({ type: 'SUBMIT' });
  };

  return (
    <Dialog
      open
      onClose={() => send({ type: 'CLOSE' })}
      fullWidth
      maxWidth="sm"
      aria-labelledby="create-workspace-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="create-workspace-title">{CreateWorkspaceText.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {view.error !== null && <Alert severity="error">{view.error}</Alert>}
            <TextField
              label={CreateWorkspaceText.nameLabel}
              value={form.name}
              onChange={(event) => send({ type: 'NAME_CHANGED', name: event.target.value })}
              disabled={view.fieldsDisabled}
              required
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
            <TextField
              label={CreateWorkspaceText.descriptionLabel}
              value={form.description}
              onChange={(event) => send({ type: 'DESCRIPTION_CHANGED', description: event.target.value })}
              disabled={view.fieldsDisabled}
              multiline
              minRows={2}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <WorkspaceTypeField
              value={form.workspaceType}
              disabled={view.typeDisabled}
              onChange={(workspaceType) => send({ type: 'TYPE_CHANGED', workspaceType })}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => send({ type: 'CLOSE' })} color="inherit">
            {CreateWorkspaceText.cancel}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={view.submitDisabled}
            startIcon={view.busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          >
            {view.submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
