import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import AddIcon from '@mui/icons-material/Add';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import type { ServerDto } from '../../../../contract/servers';
import { errorMessage, fieldErrors } from '../../../api/apiError';
import { getAccessToken } from '../../../api/tokens';
import { useAppDispatch } from '../../../app/hooks';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { useToast } from '../../../components/toast';
import { DeleteServerDialog } from '../components/DeleteServerDialog';
import { ServerCard } from '../components/ServerCard';
import { ServerFormDialog, type ServerFormValues } from '../components/ServerFormDialog';
import { registerServerRefusal } from '../registerServerPreconditions';
import {
  useCheckServerHealthMutation,
  useDeleteServerMutation,
  useRegisterServerMutation,
  useUpdateServerMutation,
} from '../serversApi';
import { startSchemaDiscovery } from '../startSchemaDiscovery';
import { useServersList } from '../useServersList';
import { useUpstreamOAuthReturn } from '../useUpstreamOAuthReturn';
import { useFlag } from '../../flags/useFlag';
import { HostedSection } from '../../deployments';

type Dialog = { kind: 'add' } | { kind: 'edit'; server: ServerDto } | { kind: 'delete'; server: ServerDto } | null;

const asFormError = (error: unknown) => ({ message: errorMessage(error), fields: fieldErrors(error) });

/** Tool Servers (SPEC §4 Servers): the workspace's servers, live status, proxy URLs and setup. */
export default function ServersPage() {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const [params] = useSearchParams();
  const { workspaceId, servers, isLoading, isRefreshing, error } = useServersList();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [checkingId, setCheckingId] = useState<string | null>(null);
  const [registerServer] = useRegisterServerMutation();
  const [updateServer] = useUpdateServerMutation();
  const [deleteServer] = useDeleteServerMutation();
  const [checkHealth] = useCheckServerHealthMutation();
  const showDeployments = useFlag('show_deployments');
  useUpstreamOAuthReturn();
  const close = () => setDialog(null);

  const add = async (values: ServerFormValues) => {
    const refusal = registerServerRefusal(workspaceId, getAccessToken());
    if (refusal || !workspaceId) return { message: refusal ?? '', fields: {} };
    try {
      const server = await registerServer({ workspaceId, body: values }).unwrap();
      close();
      toast({
        title: 'Server added',
        description: `${server.name} is registered. Point your agents at its proxy URL.`,
      });
      if (server.schemaCount === 0) startSchemaDiscovery({ workspaceId, serverId: server.id }, { dispatch, toast });
      return null;
    } catch (caught) {
      return asFormError(caught);
    }
  };

  const edit = (server: ServerDto) => async (values: ServerFormValues) => {
    try {
      await updateServer({ workspaceId: server.workspaceId, serverId: server.id, body: values }).unwrap();
      close();
      toast({ title: 'Server updated', description: `${values.name} was saved.` });
      return null;
    } catch (caught) {
      return asFormError(caught);
    }
  };

  const remove = (server: ServerDto) => async () => {
    try {
      await deleteServer({ workspaceId: server.workspaceId, serverId: server.id }).unwrap();
      close();
      toast({ title: 'Server deleted', description: `${server.name} and its proxy URL were removed.` });
      return null;
    } catch (caught) {
      return errorMessage(caught);
    }
  };

  const runHealthCheck = async (server: ServerDto) => {
    setCheckingId(server.id);
    try {
      const result = await checkHealth({ workspaceId: server.workspaceId, serverId: server.id }).unwrap();
      if (result.healthy) {
        toast({
          title: 'Server is healthy',
          description: `${server.name} answered${result.latencyMs === null ? '' : ` in ${Math.round(result.latencyMs)} ms`}.`,
        });
      } else {
        toast({
          title: 'Health check failed',
          description: result.error ?? `${server.name} did not answer.`,
          variant: 'destructive',
        });
      }
    } catch (caught) {
      toast({ title: 'Health check failed', description: errorMessage(caught), variant: 'destructive' });
    } finally {
      setCheckingId(null);
    }
  };

  const addButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'add' })}>
      Add server
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Tool Servers"
        subtitle={isRefreshing ? 'Refreshing…' : 'Register your MCP tool servers and point agents at their proxy URLs'}
        actions={servers && servers.length > 0 ? addButton : undefined}
      />
      {error && (!servers || servers.length === 0) && (
        <Alert severity="error" sx={{ mb: 3 }}>
          {error}
        </Alert>
      )}
      {isLoading && <ServersSkeleton />}
      {servers && servers.length === 0 && (
        <EmptyState
          icon={<DnsOutlinedIcon />}
          title="No tool servers yet"
          description="Register an MCP server by its URL. Toolscope gives it a proxy URL: point an agent at it and every session, message and tool call is traced, with the server's live status and schemas shown here."
        >
          <Box sx={{ mt: 1 }}>{addButton}</Box>
        </EmptyState>
      )}
      {servers && servers.length > 0 && (
        <Box
          sx={{
            display: 'grid',
            gap: 2.5,
            gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 520px), 1fr))',
            alignItems: 'start',
          }}
        >
          {servers.map((server) => (
            <ServerCard
              key={server.id}
              server={server}
              checking={checkingId === server.id}
              highlighted={params.get('serverId') === server.id}
              onCheckHealth={() => void runHealthCheck(server)}
              onEdit={() => setDialog({ kind: 'edit', server })}
              onDelete={() => setDialog({ kind: 'delete', server })}
            />
          ))}
        </Box>
      )}
      {showDeployments && <HostedSection workspaceId={workspaceId} />}
      {dialog?.kind === 'add' && (
        <ServerFormDialog
          title="Add tool server"
          submitLabel="Add server"
          busyLabel="Adding..."
          onSubmit={add}
          onClose={close}
        />
      )}
      {dialog?.kind === 'edit' && (
        <ServerFormDialog
          title={`Edit ${dialog.server.name}`}
          submitLabel="Save changes"
          busyLabel="Saving..."
          initial={{
            url: dialog.server.url,
            name: dialog.server.name,
            description: dialog.server.description,
            transport: dialog.server.transport,
            hasCredentials: dialog.server.hasCredentials,
            allowedOrigins: dialog.server.allowedOrigins,
          }}
          onSubmit={edit(dialog.server)}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteServerDialog serverName={dialog.server.name} onConfirm={remove(dialog.server)} onClose={close} />
      )}
    </>
  );
}

function ServersSkeleton() {
  return (
    <Box
      aria-label="Loading servers"
      sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' } }}
    >
      {[0, 1].map((i) => (
        <Skeleton key={i} variant="rounded" height={260} sx={{ borderRadius: 3 }} />
      ))}
    </Box>
  );
}
