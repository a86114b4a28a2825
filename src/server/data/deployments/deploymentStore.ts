import type { Queryable } from '../../db/database';
import type { DeploymentRow } from './mapper';

// Queries of deployments, including the lease: a deployment is run by the instance named in
// owner_instance for as long as lease_expires_at lies ahead; the owner renews it while it runs,
// and any instance may claim a deployment that should run and whose lease lapsed.
const COLUMNS = `id, workspace_id, config_id, server_id, status, desired_state, pid, started_at, stopped_at, restarts,
  exit_code, signal, last_error, last_stderr, owner_instance, lease_expires_at, created_at, updated_at`;

export const LEASE_MS = 30_000;

export async function insertDeployment(
  db: Queryable,
  row: { workspaceId: string; configId: string; serverId: string; owner: string },
): Promise<DeploymentRow> {
  const [inserted] = await db.query<DeploymentRow>(
    `insert into deployments (workspace_id, config_id, server_id, owner_instance, lease_expires_at)
     values ($1, $2, $3, $4, now() + ($5 || ' milliseconds')::interval) returning ${COLUMNS}`,
    [row.workspaceId, row.configId, row.serverId, row.owner, String(LEASE_MS)],
  );
  return inserted;
}

export async function findDeployment(db: Queryable, deploymentId: string): Promise<DeploymentRow | undefined> {
  const rows = await db.query<DeploymentRow>(`select ${COLUMNS} from deployments where id = $1`, [deploymentId]);
  return rows[0];
}

export function listDeploymentsOfConfig(db: Queryable, configId: string, limit = 100): Promise<DeploymentRow[]> {
  return db.query<DeploymentRow>(
    `select ${COLUMNS} from deployments where config_id = $1 order by created_at desc, id desc limit $2`,
    [configId, limit],
  );
}

export async function latestDeployments(db: Queryable, configIds: string[]): Promise<Map<string, DeploymentRow>> {
  if (configIds.length === 0) return new Map();
  const rows = await db.query<DeploymentRow>(
    `select distinct on (config_id) ${COLUMNS} from deployments where config_id = any($1::uuid[]) order by config_id, created_at desc, id desc`,
    [configIds],
  );
  return new Map(rows.map((row) => [row.config_id, row]));
}

/** Deployments of a config that should still run (a new deploy replaces them). */
export function wantedDeploymentsOfConfig(db: Queryable, configId: string): Promise<DeploymentRow[]> {
  return db.query<DeploymentRow>(
    `select ${COLUMNS} from deployments where config_id = $1 and desired_state = 'running'`,
    [configId],
  );
}

export interface StatusChange {
  status: string;
  pid: number | null;
  startedAt: Date | null;
  stoppedAt: Date | null;
  restarts: number;
  exitCode: number | null;
  signal: string | null;
  lastError: string | null;
  lastStderr: string[];
}

export async function recordStatus(
  db: Queryable,
  deploymentId: string,
  change: StatusChange,
): Promise<DeploymentRow | undefined> {
  const rows = await db.query<DeploymentRow>(
    `update deployments set status = $2, pid = $3, started_at = $4, stopped_at = $5, restarts = $6, exit_code = $7,
       signal = $8, last_error = $9, last_stderr = $10::jsonb, updated_at = now()
     where id = $1 returning ${COLUMNS}`,
    [
      deploymentId,
      change.status,
      change.pid,
      change.startedAt,
      change.stoppedAt,
      change.restarts,
      change.exitCode,
      change.signal,
      change.lastError,
      JSON.stringify(change.lastStderr),
    ],
  );
  return rows[0];
}

export async function setDesiredState(
  db: Queryable,
  deploymentIds: string[],
  desired: 'running' | 'stopped',
): Promise<void> {
  if (deploymentIds.length === 0) return;
  await db.query(`update deployments set desired_state = $2, updated_at = now() where id = any($1::uuid[])`, [
    deploymentIds,
    desired,
  ]);
}

/** Claims the deployments that should run and that nobody holds (or that were ours): restored at start and taken over from a dead instance. */
export function claimOrphans(db: Queryable, instance: string): Promise<DeploymentRow[]> {
  return db.query<DeploymentRow>(
    `update deployments set owner_instance = $1, lease_expires_at = now() + ($2 || ' milliseconds')::interval, updated_at = now()
     where id in (
       select id from deployments
       where desired_state = 'running' and (owner_instance is null or owner_instance = $1 or lease_expires_at is null or lease_expires_at < now())
       for update skip locked)
     returning ${COLUMNS}`,
    [instance, String(LEASE_MS)],
  );
}

/** Renews this instance's leases; returns the ones no longer wanted (stopped elsewhere). */
export async function renewLeases(db: Queryable, instance: string, deploymentIds: string[]): Promise<DeploymentRow[]> {
  if (deploymentIds.length === 0) return [];
  return db.query<DeploymentRow>(
    `update deployments set lease_expires_at = now() + ($3 || ' milliseconds')::interval
     where owner_instance = $1 and id = any($2::uuid[]) returning ${COLUMNS}`,
    [instance, deploymentIds, String(LEASE_MS)],
  );
}

export async function releaseLease(db: Queryable, deploymentId: string): Promise<void> {
  await db.query('update deployments set lease_expires_at = now() where id = $1', [deploymentId]);
}
