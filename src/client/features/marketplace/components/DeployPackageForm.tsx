import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { CatalogDetail } from '../../../../contract/marketplace';
import { packageLaunch, packageSecretKeyName } from '../../../../contract/packageLaunch';
import { errorMessage, fieldErrors } from '../../../api/apiError';
import { useAppSelector } from '../../../app/hooks';
import { CodeFrame } from '../../../components/CodeFrame';
import { useToast } from '../../../components/toast';
import { useGetConfigQuery } from '../../flags/configApi';
import { selectCurrentWorkspace } from '../../workspaces/workspaceSlice';
import { useDeployCatalogPackageMutation } from '../marketplaceApi';

/**
 * Deploy: Toolscope runs the package as a deployment of the current workspace and serves it
 * through the proxy. Secrets typed here are stored as workspace keys the deployment references;
 * they never appear in its config (docs/marketplace.md, "Deploy").
 */
export function DeployPackageForm({ entry }: { entry: CatalogDetail }) {
  const navigate = useNavigate();
  const { toast } = useToast();
  const workspace = useAppSelector(selectCurrentWorkspace);
  const settings = useGetConfigQuery().data?.deployments;
  const deployable = (entry.server.packages ?? []).map((pkg, index) => ({ pkg, index, launch: packageLaunch(pkg) })).filter((p) => p.launch !== null);
  const [choice, setChoice] = useState(0);
  const [name, setName] = useState(entry.title);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [deploy, state] = useDeployCatalogPackageMutation();
  const selected = deployable[choice];
  if (!selected?.launch) return null;
  const launch = selected.launch;
  const commandLine = [launch.command, ...launch.args].join(' ');
  const allowed = !settings || settings.allowedCommands.includes(launch.command);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Name is required';
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    if (!workspace) return setFailure('No workspace selected');
    const env: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const input of launch.env) {
      const value = values[input.name]?.trim();
      if (value) (input.secret ? secrets : env)[input.name] = value;
    }
    try {
      await deploy({ workspaceId: workspace.id, body: { slug: entry.slug, name: name.trim(), packageIndex: selected.index, env, secrets } }).unwrap();
      toast({ title: 'Deployment started', description: `${name.trim()} is starting in ${workspace.name}; it appears under Hosted on Tool Servers.` });
      navigate('/servers');
    } catch (caught) {
      const fields = fieldErrors(caught);
      // The server names fields "secrets.NAME" / "env.NAME": show each at its input.
      setErrors(Object.fromEntries(Object.entries(fields ?? {}).map(([key, text]) => [key.replace(/^(secrets|env)\./, ''), text])));
      setFailure(errorMessage(caught));
    }
  };

  if (settings && !settings.enabled) {
    return (
      <Alert severity="info">
        Deployments are off on this Toolscope, so it cannot run this package for you. An operator turns them on with TOOLSCOPE_DEPLOYMENTS=on; until then, run the command below on a machine of yours behind an MCP HTTP bridge and add its URL on Tool Servers.
      </Alert>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={`Deploy ${entry.title}`}>
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Stack spacing={2}>
        {deployable.length > 1 && (
          <TextField select label="Package" value={choice} onChange={(e) => setChoice(Number(e.target.value))}>
            {deployable.map((p, i) => (
              <MenuItem key={`${p.pkg.registryType}:${p.pkg.identifier}`} value={i}>
                {`${p.pkg.registryType} · ${p.pkg.identifier}`}
              </MenuItem>
            ))}
          </TextField>
        )}
        <CodeFrame copyText={commandLine} copyLabel="Copy command">
          {commandLine}
        </CodeFrame>
        {!allowed && (
          <Alert severity="warning">{`This Toolscope does not allow the command ${launch.command}. An operator can add it to TOOLSCOPE_DEPLOYMENT_COMMANDS.`}</Alert>
        )}
        <TextField label="Name in this workspace" value={name} onChange={(e) => setName(e.target.value)} error={Boolean(errors.name)} helperText={errors.name} />
        {launch.env.map((input) => (
          <TextField
            key={input.name}
            label={input.name}
            type={input.secret ? 'password' : 'text'}
            autoComplete="off"
            required={input.required}
            placeholder={input.default}
            value={values[input.name] ?? ''}
            onChange={(e) => setValues((v) => ({ ...v, [input.name]: e.target.value }))}
            error={Boolean(errors[input.name])}
            helperText={
              errors[input.name] ??
              [input.description, input.secret ? `Stored as the workspace key ${packageSecretKeyName(entry.server.name, input.name)}; leave empty to keep a stored one.` : ''].filter(Boolean).join(' ')
            }
          />
        ))}
        <Button type="submit" variant="contained" disabled={state.isLoading || !allowed}>
          {state.isLoading ? 'Deploying…' : 'Deploy'}
        </Button>
      </Stack>
    </Box>
  );
}
