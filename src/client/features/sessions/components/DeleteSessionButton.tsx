import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { SessionText, type SessionDto } from '../../../../contract/sessions';
import { errorMessage } from '../../../api/apiError';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { useToast } from '../../../components/toast';
import { useDeleteSessionMutation } from '../sessionsApi';

/** "Delete session" on a session's page: asks, deletes its messages, calls and payloads, returns to the list. */
export function DeleteSessionButton({ workspaceId, session }: { workspaceId: string; session: SessionDto }) {
  const [open, setOpen] = useState(false);
  const [deleteSession] = useDeleteSessionMutation();
  const navigate = useNavigate();
  const { toast } = useToast();
  const active = session.status === 'active';
  return (
    <>
      <Tooltip title={active ? SessionText.stillActive : ''}>
        {/* A disabled button fires no events: the span carries the tooltip. */}
        <span>
          <Button color="error" startIcon={<DeleteOutlineIcon />} disabled={active} onClick={() => setOpen(true)}>
            Delete session
          </Button>
        </span>
      </Tooltip>
      {open && (
        <ConfirmDestructiveDialog
          title="Delete this session?"
          confirmLabel="Delete session"
          busyLabel="Deleting…"
          onClose={() => setOpen(false)}
          onConfirm={async () => {
            try {
              await deleteSession({ workspaceId, sessionId: session.id }).unwrap();
            } catch (error) {
              return errorMessage(error);
            }
            toast({ title: 'Session deleted' });
            void navigate('/sessions');
            return null;
          }}
        >
          Its messages, tool calls and payloads are deleted for good; export it first if you need them. Analytics keep
          counting its calls.
        </ConfirmDestructiveDialog>
      )}
    </>
  );
}
