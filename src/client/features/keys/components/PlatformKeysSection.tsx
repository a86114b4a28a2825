import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { CreatedPlatformKeyDto, KeyRefusalDto, PlatformKeyDto } from '../../../../contract/keys';
import { errorMessage } from '../../../api/apiError';
import { RelativeTime } from '../../../components/RelativeTime';
import { formatDateTime, useDateDisplay } from '../../../components/dates/dateDisplay';
import { useToast } from '../../../components/toast';
import {
  useCreatePlatformKeyMutation,
  useGetPlatformKeysQuery,
  useRevokePlatformKeyMutation,
  useUpdatePlatformKeyMutation,
} from '../keysApi';
import { PlatformKeyFormDialog, type PlatformKeyFormValues } from './PlatformKeyFormDialog';
import { RevealSecretDialog } from './RevealSecretDialog';
import { RevokePlatformKeyDialog } from './RevokePlatformKeyDialog';
import { TableScroll } from '../../../components/TableScroll';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; key: PlatformKeyDto }
  | { kind: 'revoke'; key: PlatformKeyDto }
  | { kind: 'reveal'; key: CreatedPlatformKeyDto }
  | null;

const STATUS_COLOR = { active: 'success', expired: 'warning', revoked: 'default' } as const;
const REFUSAL_TEXT: Record<KeyRefusalDto['reason'], string> = {
  unknown: 'unknown key',
  revoked: 'revoked',
  expired: 'expired',
  out_of_scope: 'server out of scope',
};

/** "once", "2 times": never "1 times". */
const timesText = (count: number) => (count === 1 ? 'once' : `${count} times`);

function refusalSummary(refusals: KeyRefusalDto[]): string {
  return refusals
    .slice(0, 5)
    .map((r) => `${REFUSAL_TEXT[r.reason]} ×${r.count} at ${formatDateTime(r.at)}`)
    .join('\n');
}

/** Platform keys: what agents present at the proxy. Owners and admins create, edit and revoke. */
export function PlatformKeysSection({
  workspaceId,
  canManage,
  servers,
}: {
  workspaceId: string;
  canManage: boolean;
  servers: { id: string; name: string }[];
}) {
  const { toast } = useToast();
  // Times in the user's zone and hour cycle (Preferences): redrawn when the preference changes.
  useDateDisplay();
  const list = useGetPlatformKeysQuery(workspaceId);
  const [createKey] = useCreatePlatformKeyMutation();
  const [updateKey] = useUpdatePlatformKeyMutation();
  const [revokeKey] = useRevokePlatformKeyMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const serverName = (id: string) => servers.find((s) => s.id === id)?.name ?? 'a removed server';

  const create = async (values: PlatformKeyFormValues) => {
    try {
      const created = await createKey({
        workspaceId,
        body: { name: values.name, scopes: values.scopes, expiresAt: values.expiresAt ?? null },
      }).unwrap();
      setDialog({ kind: 'reveal', key: created });
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };
  const edit = (key: PlatformKeyDto) => async (values: PlatformKeyFormValues) => {
    try {
      await updateKey({
        workspaceId,
        keyId: key.id,
        body: {
          name: values.name,
          scopes: values.scopes,
          ...(values.expiresAt !== undefined ? { expiresAt: values.expiresAt } : {}),
        },
      }).unwrap();
      close();
      toast({ title: 'Key updated', description: `${values.name} was saved.` });
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };
  const revoke = (key: PlatformKeyDto) => async (reason: string) => {
    try {
      await revokeKey({ workspaceId, keyId: key.id, reason }).unwrap();
      close();
      toast({ title: 'Key revoked', description: `${key.name} no longer works.` });
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  return (
    <Box component="section" aria-labelledby="platform-keys-title" sx={{ mb: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Box>
          <Typography id="platform-keys-title" variant="h6">
            Platform keys
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Agents present a key at the proxy, so you know which agent made each call and can cut one off.
          </Typography>
        </Box>
        {canManage && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'create' })}>
            Create key
          </Button>
        )}
      </Box>
      {list.isLoading && <Skeleton variant="rounded" height={96} />}
      {list.isError && <Alert severity="error">{errorMessage(list.error)}</Alert>}
      {list.data && list.data.keys.length === 0 && (
        <Typography color="text.secondary">No platform keys yet.</Typography>
      )}
      {list.data && list.data.keys.length > 0 && (
        <TableScroll label="Platform keys">
          <Table size="small" aria-label="Platform keys">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Key</TableCell>
                <TableCell>Scope</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Last used</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell>Refused</TableCell>
                {canManage && <TableCell align="right">Actions</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.keys.map((key) => (
                <TableRow key={key.id} aria-label={`Platform key ${key.name}`}>
                  <TableCell>{key.name}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{key.prefix}…</TableCell>
                  <TableCell>
                    {key.scopes.allServers ? 'All servers' : key.scopes.serverIds.map(serverName).join(', ')}
                  </TableCell>
                  <TableCell>
                    <Tooltip
                      title={
                        key.status === 'revoked' && key.revokedAt !== null
                          ? `${key.revokeReason ?? ''} (${formatDateTime(key.revokedAt)})`
                          : ''
                      }
                    >
                      <Chip size="small" label={key.status} color={STATUS_COLOR[key.status]} />
                    </Tooltip>
                    {key.status === 'revoked' && key.revokeReason && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {key.revokeReason}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>{key.lastUsedAt ? <RelativeTime value={key.lastUsedAt} /> : 'Never'}</TableCell>
                  <TableCell>{key.expiresAt ? <RelativeTime value={key.expiresAt} /> : 'Never'}</TableCell>
                  <TableCell>
                    {key.refusals.length === 0 ? (
                      '—'
                    ) : (
                      <Tooltip title={<span style={{ whiteSpace: 'pre-line' }}>{refusalSummary(key.refusals)}</span>}>
                        <span>{key.refusals.reduce((sum, r) => sum + r.count, 0)}</span>
                      </Tooltip>
                    )}
                  </TableCell>
                  {canManage && (
                    <TableCell align="right">
                      {key.status !== 'revoked' && (
                        <>
                          <Button size="small" onClick={() => setDialog({ kind: 'edit', key })}>
                            Edit
                          </Button>
                          <Button size="small" color="error" onClick={() => setDialog({ kind: 'revoke', key })}>
                            Revoke
                          </Button>
                        </>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableScroll>
      )}
      {list.data && list.data.unknownKeyRefusals.length > 0 && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {`Keys this workspace never issued were refused ${timesText(list.data.unknownKeyRefusals.reduce((sum, r) => sum + r.count, 0))} recently (latest ${formatDateTime(list.data.unknownKeyRefusals[0].at)}).`}
        </Alert>
      )}
      {dialog?.kind === 'create' && <PlatformKeyFormDialog servers={servers} onSubmit={create} onClose={close} />}
      {dialog?.kind === 'edit' && (
        <PlatformKeyFormDialog existing={dialog.key} servers={servers} onSubmit={edit(dialog.key)} onClose={close} />
      )}
      {dialog?.kind === 'revoke' && (
        <RevokePlatformKeyDialog platformKey={dialog.key} onRevoke={revoke(dialog.key)} onClose={close} />
      )}
      {dialog?.kind === 'reveal' && (
        <RevealSecretDialog name={dialog.key.name} secret={dialog.key.secret} onDone={close} />
      )}
    </Box>
  );
}
