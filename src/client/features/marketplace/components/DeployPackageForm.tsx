import { useState, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { CatalogDetail } from '../../../../contract/marketplace';
import { packageLaunch, packageSecretKeyName } from '../../../../contract/packageLaunch';
import { errorMessage, fieldErrors, type FieldErrors } from '../../../api/apiError';
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
  const deployable = (entry.server.packages ?? [])
    .map((pkg, index) => ({ pkg, index, launch: packageLaunch(pkg) }))
    .filter((p) => p.launch !== null);
  const [choice, setChoice] = useState(0);
  const [name, setName] = useState(entry.title);
  const [values, setValues] = useState<Partial<Record<string, string>>>({});
  // The required arguments the catalog leaves open (e.g. Filesystem's allowed_directory).
  const [argumentValues, setArgumentValues] = useState<Partial<Record<string, string>>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [deploy, state] = useDeployCatalogPackageMutation();
  const selected = deployable.at(choice);
  if (!selected?.launch) return null;
  const given = Object.fromEntries(
    Object.entries(argumentValues).flatMap(([key, value]) => (value?.trim() ? [[key, value.trim()]] : [])),
  );
  // The command shown is the one the server will run, with the arguments typed so far.
  const launch = packageLaunch(selected.pkg, given) ?? selected.launch;
  const commandLine = [launch.command, ...launch.args].join(' ');
  const allowed = !settings || settings.allowedCommands.includes(launch.command);

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Name is required';
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    if (!workspace) {
      setFailure('No workspace selected');
      return;
    }
    const env: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const input of launch.env) {
      const value = values[input.name]?.trim();
      if (value) (input.secret ? secrets : env)[input.name] = value;
    }
    try {
      await deploy({
        workspaceId: workspace.id,
        body: { slug: entry.slug, name: name.trim(), packageIndex: selected.index, env, secrets, arguments: given },
      }).unwrap();
      toast({
        title: 'Deployment started',
        description: `${name.trim()} is starting in ${workspace.name}; it appears under Hosted on Tool Servers.`,
      });
      void navigate('/servers');
    } catch (caught) {
      const fields = fieldErrors(caught);
      // The server names fields "secrets.NAME" / "env.NAME" / "arguments.KEY": show each at its input.
      setErrors(
        Object.fromEntries(
          Object.entries(fields).map(([key, text]) => [key.replace(/^(secrets|env|arguments)\./, ''), text]),
        ),
      );
      setFailure(errorMessage(caught));
    }
  };

  if (settings && !settings.enabled) {
    return (
      <Alert severity="info">
        Deployments are off on this Toolscope, so it cannot run this package for you. An operator turns them on with
        TOOLSCOPE_DEPLOYMENTS=on; until then, run the command below on a machine of yours behind an MCP HTTP bridge and
        add its URL on Tool Servers.
      </Alert>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-label={`Deploy ${entry.title}`}>
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
        <TextField
          label="Name in this workspace"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name}
        />
        {launch.arguments.map((input) => (
          <TextField
            key={`argument:${input.key}`}
            label={input.key}
            required
            autoComplete="off"
            value={argumentValues[input.key] ?? ''}
            onChange={(e) => setArgumentValues((v) => ({ ...v, [input.key]: e.target.value }))}
            error={Boolean(errors[input.key])}
            helperText={errors[input.key] ?? (input.description || 'A value the package needs on its command line')}
          />
        ))}
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
              [
                input.description,
                input.secret
                  ? `Stored as the workspace key ${packageSecretKeyName(entry.server.name, input.name)}; leave empty to keep a stored one.`
                  : '',
              ]
                .filter(Boolean)
                .join(' ')
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
