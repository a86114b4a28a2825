import type { FieldErrors } from '../../api/apiError';
import type {
  CreateDeploymentConfigBody,
  DeploymentConfigDto,
  RestartPolicy,
  SessionMode,
} from '../../../contract/deployments';

// The config form's text fields and the API's shape, both ways: arguments one per line,
// environment as NAME=value lines (values may hold {{key:NAME}} references).
export interface ConfigFormValues {
  name: string;
  description: string;
  command: string;
  args: string;
  env: string;
  cwd: string;
  restartPolicy: RestartPolicy;
  maxRestarts: string;
  startTimeoutSeconds: string;
  sessionMode: SessionMode;
  memoryMb: string;
  openFiles: string;
  noNetwork: boolean;
  ownPidNamespace: boolean;
}

export const EMPTY_CONFIG_FORM: ConfigFormValues = {
  name: '',
  description: '',
  command: 'npx',
  args: '',
  env: '',
  cwd: '',
  restartPolicy: 'on-failure',
  maxRestarts: '5',
  startTimeoutSeconds: '30',
  sessionMode: 'shared',
  memoryMb: '',
  openFiles: '',
  noNetwork: false,
  ownPidNamespace: false,
};

export function formFromConfig(config: DeploymentConfigDto): ConfigFormValues {
  return {
    name: config.name,
    description: config.description,
    command: config.command,
    args: config.args.join('\n'),
    env: Object.entries(config.env)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n'),
    cwd: config.cwd,
    restartPolicy: config.restartPolicy,
    maxRestarts: String(config.maxRestarts),
    startTimeoutSeconds: String(Math.round(config.startTimeoutMs / 1000)),
    sessionMode: config.sessionMode,
    memoryMb: config.limits.memoryMb ? String(config.limits.memoryMb) : '',
    openFiles: config.limits.openFiles ? String(config.limits.openFiles) : '',
    noNetwork: Boolean(config.isolation.noNetwork),
    ownPidNamespace: Boolean(config.isolation.ownPidNamespace),
  };
}

export type ParsedForm =
  { ok: true; body: Omit<CreateDeploymentConfigBody, 'workspace_id'> } | { ok: false; fields: FieldErrors };

const positiveOrNull = (text: string): number | null | 'invalid' => {
  if (!text.trim()) return null;
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : 'invalid';
};

/** The body to send, or the fields that cannot be read (checked again by the server). */
export function parseConfigForm(values: ConfigFormValues): ParsedForm {
  const fields: FieldErrors = {};
  const env: Record<string, string> = {};
  values.env.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq <= 0) {
      fields.env ??= `Line ${index + 1}: write NAME=value`;
      return;
    }
    env[line.slice(0, eq).trim()] = line.slice(eq + 1);
  });
  const args = values.args
    .split('\n')
    .map((a) => a.trim())
    .filter(Boolean);
  const maxRestarts = Number(values.maxRestarts);
  if (!Number.isInteger(maxRestarts) || maxRestarts < 0) fields.maxRestarts = 'A whole number, 0 or more';
  const startTimeout = Number(values.startTimeoutSeconds);
  if (!Number.isFinite(startTimeout) || startTimeout < 1 || startTimeout > 600)
    fields.startTimeoutMs = 'Between 1 and 600 seconds';
  const memoryMb = positiveOrNull(values.memoryMb);
  if (memoryMb === 'invalid') fields['limits.memoryMb'] = 'A whole number of MiB';
  const openFiles = positiveOrNull(values.openFiles);
  if (openFiles === 'invalid') fields['limits.openFiles'] = 'A whole number';
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    body: {
      name: values.name.trim(),
      description: values.description.trim(),
      command: values.command.trim(),
      args,
      env,
      cwd: values.cwd.trim(),
      restartPolicy: values.restartPolicy,
      maxRestarts,
      startTimeoutMs: Math.round(startTimeout * 1000),
      sessionMode: values.sessionMode,
      limits: { memoryMb: memoryMb as number | null, openFiles: openFiles as number | null },
      isolation: { noNetwork: values.noNetwork, ownPidNamespace: values.ownPidNamespace },
    },
  };
}

/** The command line as a user would type it (for display only: nothing runs through a shell). */
export function commandLine(config: Pick<DeploymentConfigDto, 'command' | 'args'>): string {
  return [config.command, ...config.args]
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, "'\\''")}'`))
    .join(' ');
}
