import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { DeploymentConfigDto } from '../../../../contract/deployments';
import { errorMessage, fieldErrors } from '../../../api/apiError';
import { ConfirmDestructiveDialog } from '../../../components/ConfirmDestructiveDialog';
import { useToast } from '../../../components/toast';
import { useGetConfigQuery } from '../../flags/configApi';
import { formFromConfig, parseConfigForm, type ConfigFormValues } from '../configForm';
import {
  useCreateDeploymentConfigMutation,
  useDeleteDeploymentConfigMutation,
  useDeployConfigMutation,
  useGetDeploymentConfigsQuery,
  useRestartDeploymentMutation,
  useStopDeploymentMutation,
  useUpdateDeploymentConfigMutation,
} from '../deploymentsApi';
import { DeploymentCard } from './DeploymentCard';
import { DeploymentConfigDialog } from './DeploymentConfigDialog';

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; config: DeploymentConfigDto }
  | { kind: 'delete'; config: DeploymentConfigDto }
  | { kind: 'stop'; config: DeploymentConfigDto }
  | null;

const asFormError = (error: unknown) => ({ message: errorMessage(error), fields: fieldErrors(error) });

/**
 * "Hosted" on /servers (flag show_deployments): stdio MCP programs Toolscope runs and exposes
 * through the proxy like any other server (docs/deployments.md).
 */
export function HostedSection({ workspaceId }: { workspaceId: string | null }) {
  const { toast } = useToast();
  const [params] = useSearchParams();
  const { data: publicConfig } = useGetConfigQuery();
  const { data: configs, error, isLoading } = useGetDeploymentConfigsQuery(workspaceId ?? '', { skip: !workspaceId });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [createConfig] = useCreateDeploymentConfigMutation();
  const [updateConfig] = useUpdateDeploymentConfigMutation();
  const [deleteConfig] = useDeleteDeploymentConfigMutation();
  const [deploy] = useDeployConfigMutation();
  const [restart] = useRestartDeploymentMutation();
  const [stop] = useStopDeploymentMutation();
  const close = () => setDialog(null);
  const settings = publicConfig?.deployments;
  const allowedCommands = settings?.allowedCommands ?? [];

  if (!workspaceId) return null;

  const save = (config?: DeploymentConfigDto) => async (values: ConfigFormValues) => {
    const parsed = parseConfigForm(values);
    if (!parsed.ok) return { message: Object.values(parsed.fields)[0] ?? '', fields: parsed.fields };
    try {
      if (config) await updateConfig({ workspaceId, configId: config.id, body: parsed.body }).unwrap();
      else await createConfig({ workspace_id: workspaceId, ...parsed.body }).unwrap();
      close();
      toast({
        title: config ? 'Hosted server updated' : 'Hosted server added',
        description: config ? 'The changes apply at the next deploy.' : `${parsed.body.name} is ready to deploy.`,
      });
      return null;
    } catch (caught) {
      return asFormError(caught);
    }
  };

  const act = async (config: DeploymentConfigDto, run: () => Promise<unknown>, done: string) => {
    setBusyId(config.id);
    try {
      await run();
      toast({ title: done, description: config.name });
    } catch (caught) {
      toast({ title: 'That did not work', description: errorMessage(caught), variant: 'destructive' });
    } finally {
      setBusyId(null);
    }
  };

  // Restart and Stop are offered only for a config that has a deployment; a stale list says so instead of failing.
  const latest = (config: DeploymentConfigDto) => {
    if (!config.latestDeployment) throw new Error(`${config.name} has no deployment`);
    return config.latestDeployment;
  };

  return (
    <Box component="section" aria-labelledby="hosted-title" sx={{ mt: 5 }}>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }} spacing={2}>
        <Box>
          <Typography id="hosted-title" variant="h5" component="h2">
            Hosted
          </Typography>
          <Typography variant="body2" color="text.secondary">
            stdio MCP servers Toolscope runs for you, each reachable at its own proxy URL and traced like any other
            server.
          </Typography>
        </Box>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'add' })}>
          New hosted server
        </Button>
      </Stack>
      {settings && !settings.enabled && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Deployments are off on this Toolscope: you can prepare configs, but nothing runs until an operator sets
          TOOLSCOPE_DEPLOYMENTS=on.
        </Alert>
      )}
      {error && <Alert severity="error">{errorMessage(error)}</Alert>}
      {isLoading && <Skeleton variant="rounded" height={160} />}
      {configs && configs.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          No hosted servers yet. Add one with the command you would run locally, for example npx -y
          @modelcontextprotocol/server-filesystem /data.
        </Typography>
      )}
      <Stack spacing={2}>
        {configs?.map((config) => (
          <DeploymentCard
            key={config.id}
            config={config}
            busy={busyId === config.id}
            highlighted={
              params.get('deploymentId') !== null && params.get('deploymentId') === config.latestDeployment?.id
            }
            actions={{
              onDeploy: () =>
                void act(config, () => deploy({ workspaceId, configId: config.id }).unwrap(), 'Deploying'),
              onRestart: () =>
                void act(
                  config,
                  () => restart({ workspaceId, deploymentId: latest(config).id }).unwrap(),
                  'Restarting',
                ),
              onStop: () => setDialog({ kind: 'stop', config }),
              onEdit: () => setDialog({ kind: 'edit', config }),
              onDelete: () => setDialog({ kind: 'delete', config }),
            }}
          />
        ))}
      </Stack>
      {dialog?.kind === 'add' && (
        <DeploymentConfigDialog
          title="New hosted server"
          submitLabel="Add"
          busyLabel="Adding..."
          allowedCommands={allowedCommands}
          onSubmit={save()}
          onClose={close}
        />
      )}
      {dialog?.kind === 'edit' && (
        <DeploymentConfigDialog
          title={`Edit ${dialog.config.name}`}
          submitLabel="Save changes"
          busyLabel="Saving..."
          initial={formFromConfig(dialog.config)}
          allowedCommands={allowedCommands}
          onSubmit={save(dialog.config)}
          onClose={close}
        />
      )}
      {dialog?.kind === 'stop' && (
        <ConfirmDestructiveDialog
          title={`Stop ${dialog.config.name}?`}
          confirmLabel="Stop"
          busyLabel="Stopping..."
          onClose={close}
          onConfirm={async () => {
            try {
              await stop({ workspaceId, deploymentId: latest(dialog.config).id }).unwrap();
              close();
              return null;
            } catch (caught) {
              return errorMessage(caught);
            }
          }}
        >
          Its program is stopped (stdin closed, then SIGTERM, then SIGKILL) and agents using its proxy URL get errors
          until you deploy it again.
        </ConfirmDestructiveDialog>
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDestructiveDialog
          title={`Delete ${dialog.config.name}?`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          onClose={close}
          onConfirm={async () => {
            try {
              await deleteConfig({ workspaceId, configId: dialog.config.id }).unwrap();
              close();
              return null;
            } catch (caught) {
              return errorMessage(caught);
            }
          }}
        >
          Its program stops, and its tool server and proxy URL are removed. Recorded sessions of it are deleted with the
          server.
        </ConfirmDestructiveDialog>
      )}
    </Box>
  );
}
