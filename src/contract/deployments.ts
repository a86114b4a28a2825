import { z } from 'zod';

// Deployments (SPEC §3 "Deployment config", §7 Deployments): stdio MCP programs Toolscope runs
// under supervision and exposes through the proxy like any other tool server. The config fields
// are ours (SPEC: "not shown"); docs/deployments.md explains each.
export const RESTART_POLICIES = ['always', 'on-failure', 'never'] as const;
export type RestartPolicy = (typeof RESTART_POLICIES)[number];
/** shared: every agent session talks to one process; per-session: a process per agent session. */
export const SESSION_MODES = ['shared', 'per-session'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];
export const DEPLOYMENT_STATUSES = [
  'pending',
  'starting',
  'running',
  'restarting',
  'crashed',
  'stopped',
  'failed',
] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];
/** Statuses after which nothing runs and nothing will start on its own. */
export const FINAL_DEPLOYMENT_STATUSES: readonly DeploymentStatus[] = ['crashed', 'stopped', 'failed'];
export const LOG_STREAMS = ['stderr', 'stdout', 'system'] as const;
export type LogStream = (typeof LOG_STREAMS)[number];

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Set by Toolscope itself for every program. */
export const RESERVED_ENV_NAMES = ['PATH', 'HOME'] as const;

const NoNul = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\0'), 'Must not contain NUL characters');

export const DeploymentEnv = z
  .record(
    z.string().regex(ENV_NAME, 'Environment names are letters, digits and _ (not starting with a digit)').max(200),
    NoNul(8192),
  )
  .refine((env) => Object.keys(env).length <= 100, 'At most 100 environment variables')
  .refine(
    (env) => Object.keys(env).every((name) => !(RESERVED_ENV_NAMES as readonly string[]).includes(name)),
    'PATH and HOME are set by Toolscope',
  );

export const DeploymentLimits = z.object({
  /** Address-space limit of the program (prlimit --as), MiB. */
  memoryMb: z.number().int().min(32).max(1_048_576).nullable().optional(),
  /** Open files (prlimit --nofile). */
  openFiles: z.number().int().min(16).max(1_048_576).nullable().optional(),
});
export type DeploymentLimits = z.infer<typeof DeploymentLimits>;

export const DeploymentIsolation = z.object({
  /** Its own empty network namespace (unshare --net): no network at all. */
  noNetwork: z.boolean().optional(),
  /** Its own PID namespace (unshare --pid --fork): it sees only its own processes. */
  ownPidNamespace: z.boolean().optional(),
});
export type DeploymentIsolation = z.infer<typeof DeploymentIsolation>;

const configFields = {
  name: z.string().trim().min(1, 'Name is required').max(100),
  description: z.string().trim().max(1000),
  command: z
    .string()
    .trim()
    .min(1, 'Command is required')
    .max(300)
    .refine((v) => !/[\0\s]/.test(v), 'The command is one program name, without arguments or spaces'),
  args: z.array(NoNul(4096)).max(100, 'At most 100 arguments'),
  env: DeploymentEnv,
  /** A folder inside the deployment's working folder (relative); empty = the working folder itself. */
  cwd: z.string().trim().max(500),
  restartPolicy: z.enum(RESTART_POLICIES),
  maxRestarts: z.number().int().min(0).max(1000),
  startTimeoutMs: z.number().int().min(1000).max(600_000),
  limits: DeploymentLimits,
  isolation: DeploymentIsolation,
  sessionMode: z.enum(SESSION_MODES),
};

export const DEPLOYMENT_CONFIG_DEFAULTS = {
  description: '',
  args: [] as string[],
  env: {} as Record<string, string>,
  cwd: '',
  restartPolicy: 'on-failure' as RestartPolicy,
  maxRestarts: 5,
  startTimeoutMs: 30_000,
  limits: {} as DeploymentLimits,
  isolation: {} as DeploymentIsolation,
  sessionMode: 'shared' as SessionMode,
};

/** POST /api/v1/deployments/configs */
export const CreateDeploymentConfigBody = z.object({
  workspace_id: z.string().min(1, 'workspace_id is required'),
  name: configFields.name,
  description: configFields.description.optional().default(DEPLOYMENT_CONFIG_DEFAULTS.description),
  command: configFields.command,
  args: configFields.args.optional().default([]),
  env: configFields.env.optional().default({}),
  cwd: configFields.cwd.optional().default(''),
  restartPolicy: configFields.restartPolicy.optional().default(DEPLOYMENT_CONFIG_DEFAULTS.restartPolicy),
  maxRestarts: configFields.maxRestarts.optional().default(DEPLOYMENT_CONFIG_DEFAULTS.maxRestarts),
  startTimeoutMs: configFields.startTimeoutMs.optional().default(DEPLOYMENT_CONFIG_DEFAULTS.startTimeoutMs),
  limits: configFields.limits.optional().default({}),
  isolation: configFields.isolation.optional().default({}),
  sessionMode: configFields.sessionMode.optional().default(DEPLOYMENT_CONFIG_DEFAULTS.sessionMode),
});
export type CreateDeploymentConfigBody = z.input<typeof CreateDeploymentConfigBody>;

/** PUT /api/v1/deployment-configs/{id}: every field optional; changes apply at the next deploy. */
export const UpdateDeploymentConfigBody = z.object({
  name: configFields.name.optional(),
  description: configFields.description.optional(),
  command: configFields.command.optional(),
  args: configFields.args.optional(),
  env: configFields.env.optional(),
  cwd: configFields.cwd.optional(),
  restartPolicy: configFields.restartPolicy.optional(),
  maxRestarts: configFields.maxRestarts.optional(),
  startTimeoutMs: configFields.startTimeoutMs.optional(),
  limits: configFields.limits.optional(),
  isolation: configFields.isolation.optional(),
  sessionMode: configFields.sessionMode.optional(),
});
export type UpdateDeploymentConfigBody = z.input<typeof UpdateDeploymentConfigBody>;

export const DeploymentDto = z.object({
  id: z.string(),
  configId: z.string(),
  workspaceId: z.string(),
  /** The tool server the deployment is registered as (kind `deployment`). */
  serverId: z.string().nullable(),
  status: z.enum(DEPLOYMENT_STATUSES),
  pid: z.number().int().nullable(),
  startedAt: z.string().nullable(),
  stoppedAt: z.string().nullable(),
  /** Restarts after crashes since this deployment was made. */
  restarts: z.number().int(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** Resident memory of the program's process group, bytes (null when not running or unknown). */
  memoryBytes: z.number().nullable(),
  lastError: z.string().nullable(),
  /** The last stderr lines, kept when the program crashes or fails. */
  lastStderr: z.array(z.string()),
  /** Agent sessions with a process of their own (per-session mode). */
  sessionProcesses: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeploymentDto = z.infer<typeof DeploymentDto>;

export const DeploymentConfigDto = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: configFields.name,
  description: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  cwd: z.string(),
  restartPolicy: z.enum(RESTART_POLICIES),
  maxRestarts: z.number().int(),
  startTimeoutMs: z.number().int(),
  limits: DeploymentLimits,
  isolation: DeploymentIsolation,
  sessionMode: z.enum(SESSION_MODES),
  /** The tool server its deployments are registered as; stable across deploys (same proxy URL). */
  serverId: z.string().nullable(),
  proxyUrl: z.string().nullable(),
  latestDeployment: DeploymentDto.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeploymentConfigDto = z.infer<typeof DeploymentConfigDto>;

export const DeploymentConfigListQuery = z.object({ workspace_id: z.string().min(1, 'workspace_id is required') });
export const DeploymentConfigList = z.array(DeploymentConfigDto);
export const DeploymentList = z.array(DeploymentDto);

export const DeploymentLogLine = z.object({
  /** Increasing per deployment: a client merges pages and the live tail by it. */
  seq: z.number().int(),
  at: z.string(),
  stream: z.enum(LOG_STREAMS),
  text: z.string(),
});
export type DeploymentLogLine = z.infer<typeof DeploymentLogLine>;

export const DeploymentLogsQuery = z.object({
  /** Lines logged after this time (ISO). */
  since: z
    .string()
    .check(z.iso.datetime({ offset: true, error: 'since must be an ISO date-time' }))
    .optional(),
  /** Lines before this seq (loading earlier lines). */
  before: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional().default(1000),
});
export const DeploymentLogsResult = z.object({
  lines: z.array(DeploymentLogLine),
  /** More lines exist before the first one returned. */
  hasEarlier: z.boolean(),
});
export type DeploymentLogsResult = z.infer<typeof DeploymentLogsResult>;

/** Live stream `deployment_log`: lines as they are written (batched). */
export interface DeploymentLogMessage {
  deploymentId: string;
  configId: string;
  lines: DeploymentLogLine[];
}

/** What the SPA needs to know about this instance (GET /api/v1/config → deployments). */
export interface DeploymentsSettings {
  enabled: boolean;
  allowedCommands: string[];
}

export const DEPLOYMENT_LOG_RING = { maxLines: 10_000, maxBytes: 5 * 1024 * 1024 } as const;
export const RESTART_BACKOFF = { initialMs: 1_000, maxMs: 60_000, resetAfterUptimeMs: 60_000 } as const;
