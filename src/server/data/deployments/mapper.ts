import type {
  DeploymentConfigDto,
  DeploymentDto,
  DeploymentIsolation,
  DeploymentLimits,
  DeploymentStatus,
  RestartPolicy,
  SessionMode,
} from '../../../contract/deployments';
import { Paths } from '../../../contract/routes';

/** A row of deployment_configs (m017), with its server's proxy key joined. */
export interface DeploymentConfigRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  restart_policy: string;
  max_restarts: number;
  start_timeout_ms: number;
  limits: DeploymentLimits;
  isolation: DeploymentIsolation;
  session_mode: string;
  server_id: string | null;
  proxy_key: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A row of deployments (m017). */
export interface DeploymentRow {
  id: string;
  workspace_id: string;
  config_id: string;
  server_id: string | null;
  status: string;
  desired_state: string;
  pid: number | null;
  started_at: Date | string | null;
  stopped_at: Date | string | null;
  restarts: number;
  exit_code: number | null;
  signal: string | null;
  last_error: string | null;
  last_stderr: string[];
  owner_instance: string | null;
  lease_expires_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** What only the instance running a deployment knows (memory, session processes). */
export interface LiveFigures {
  memoryBytes: number | null;
  sessionProcesses: number;
}

const iso = (t: Date | string) => (t instanceof Date ? t : new Date(t)).toISOString();
const isoOrNull = (t: Date | string | null) => (t === null ? null : iso(t));
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export function toDeploymentDto(row: DeploymentRow, live?: LiveFigures): DeploymentDto {
  return {
    id: row.id,
    configId: row.config_id,
    workspaceId: row.workspace_id,
    serverId: row.server_id,
    status: row.status as DeploymentStatus,
    pid: row.pid,
    startedAt: isoOrNull(row.started_at),
    stoppedAt: isoOrNull(row.stopped_at),
    restarts: row.restarts,
    exitCode: row.exit_code,
    signal: row.signal,
    memoryBytes: live?.memoryBytes ?? null,
    lastError: row.last_error,
    lastStderr: parsed(row.last_stderr),
    sessionProcesses: live?.sessionProcesses ?? 0,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function toDeploymentConfigDto(
  row: DeploymentConfigRow,
  publicBase: string,
  latest: DeploymentDto | null,
): DeploymentConfigDto {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    description: row.description,
    command: row.command,
    args: parsed(row.args),
    env: parsed(row.env),
    cwd: row.cwd,
    restartPolicy: row.restart_policy as RestartPolicy,
    maxRestarts: row.max_restarts,
    startTimeoutMs: row.start_timeout_ms,
    limits: parsed(row.limits),
    isolation: parsed(row.isolation),
    sessionMode: row.session_mode as SessionMode,
    serverId: row.server_id,
    proxyUrl: row.proxy_key ? `${publicBase.replace(/\/+$/, '')}${Paths.proxy(row.proxy_key)}` : null,
    latestDeployment: latest,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
