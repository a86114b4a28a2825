import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { WorkspaceKeyDto } from '../../../../contract/keys';
import { errorMessage } from '../../../api/apiError';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { RelativeTime } from '../../../components/RelativeTime';
import { useToast } from '../../../components/toast';
import {
  useCreateWorkspaceKeyMutation,
  useDeleteWorkspaceKeyMutation,
  useGetWorkspaceKeysQuery,
  useUpdateWorkspaceKeyMutation,
} from '../keysApi';
import { WorkspaceKeyDialog, type WorkspaceKeyValues } from './WorkspaceKeyDialog';
import { TableScroll } from '../../../components/TableScroll';

type Dialog =
  { kind: 'add' } | { kind: 'rotate'; key: WorkspaceKeyDto } | { kind: 'delete'; key: WorkspaceKeyDto } | null;

/** Workspace keys: named upstream secrets for server headers ({{key:NAME}}), write-only. */
export function WorkspaceKeysSection({ workspaceId, canManage }: { workspaceId: string; canManage: boolean }) {
  const { toast } = useToast();
  const list = useGetWorkspaceKeysQuery(workspaceId);
  const [createKey] = useCreateWorkspaceKeyMutation();
  const [updateKey] = useUpdateWorkspaceKeyMutation();
  const [deleteKey] = useDeleteWorkspaceKeyMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const attempt = (action: () => Promise<unknown>, title: string, description: string) => async () => {
    try {
      await action();
      close();
      toast({ title, description });
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  return (
    <Box component="section" aria-labelledby="workspace-keys-title" sx={{ mb: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Box>
          <Typography id="workspace-keys-title" variant="h6">
            Workspace keys
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Secrets your tool servers need, e.g. <code>Authorization: Bearer {'{{key:GITHUB_TOKEN}}'}</code> in a
            server’s headers. Rotating one applies to the next request.
          </Typography>
        </Box>
        {canManage && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'add' })}>
            Add key
          </Button>
        )}
      </Box>
      {list.isLoading && <Skeleton variant="rounded" height={72} />}
      {list.isError && <Alert severity="error">{errorMessage(list.error)}</Alert>}
      {list.data && list.data.length === 0 && <Typography color="text.secondary">No workspace keys yet.</Typography>}
      {list.data && list.data.length > 0 && (
        <TableScroll label="Workspace keys">
          <Table size="small" aria-label="Workspace keys">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Description</TableCell>
                <TableCell>Allowed hosts</TableCell>
                <TableCell>Used by</TableCell>
                <TableCell>Updated</TableCell>
                <TableCell>Last used</TableCell>
                {canManage && <TableCell align="right">Actions</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.map((key) => (
                <TableRow key={key.id}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{key.name}</TableCell>
                  <TableCell>{key.description || '—'}</TableCell>
                  <TableCell>{key.allowedHosts.join(', ') || 'None (no server can use it)'}</TableCell>
                  <TableCell>{key.usedBy.map((s) => s.name).join(', ') || '—'}</TableCell>
                  <TableCell>
                    <RelativeTime value={key.updatedAt} />
                  </TableCell>
                  <TableCell>{key.lastUsedAt ? <RelativeTime value={key.lastUsedAt} /> : 'Never'}</TableCell>
                  {canManage && (
                    <TableCell align="right">
                      <Button size="small" onClick={() => setDialog({ kind: 'rotate', key })}>
                        Rotate
                      </Button>
                      <Button size="small" color="error" onClick={() => setDialog({ kind: 'delete', key })}>
                        Delete
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableScroll>
      )}
      {dialog?.kind === 'add' && (
        <WorkspaceKeyDialog
          onSubmit={(v: WorkspaceKeyValues) =>
            attempt(
              () => createKey({ workspaceId, body: v }).unwrap(),
              'Key added',
              `${v.name} can be referenced as {{key:${v.name}}}.`,
            )()
          }
          onClose={close}
        />
      )}
      {dialog?.kind === 'rotate' && (
        <WorkspaceKeyDialog
          existing={dialog.key}
          onSubmit={(v) =>
            attempt(
              () => updateKey({ workspaceId, keyId: dialog.key.id, body: { value: v.value } }).unwrap(),
              'Key rotated',
              `The next upstream request uses the new ${dialog.key.name}.`,
            )()
          }
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDestructiveDialog
          title={`Delete ${dialog.key.name}?`}
          confirmLabel="Delete key"
          busyLabel="Deleting..."
          onConfirm={attempt(
            () => deleteKey({ workspaceId, keyId: dialog.key.id }).unwrap(),
            'Key deleted',
            `${dialog.key.name} was deleted.`,
          )}
          onClose={close}
        >
          Servers whose headers reference it must stop doing so first.
        </ConfirmDestructiveDialog>
      )}
    </Box>
  );
}
