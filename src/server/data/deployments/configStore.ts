import type { Queryable } from '../../db/database';
import type { DeploymentIsolation, DeploymentLimits } from '../../../contract/deployments';
import type { DeploymentConfigRow } from './mapper';

// Queries of deployment_configs. Reads by id return the row with its workspace; callers check
// membership of that workspace (workspaceAccess.ts) before they show or change anything.
const SELECT = `select c.id, c.workspace_id, c.name, c.description, c.command, c.args, c.env, c.cwd, c.restart_policy,
  c.max_restarts, c.start_timeout_ms, c.limits, c.isolation, c.session_mode, c.server_id, s.proxy_key, c.created_at, c.updated_at
  from deployment_configs c left join servers s on s.id = c.server_id`;

export interface ConfigFields {
  name: string;
  description: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  restartPolicy: string;
  maxRestarts: number;
  startTimeoutMs: number;
  limits: DeploymentLimits;
  isolation: DeploymentIsolation;
  sessionMode: string;
}

const COLUMN_OF: Record<keyof ConfigFields, string> = {
  name: 'name',
  description: 'description',
  command: 'command',
  args: 'args',
  env: 'env',
  cwd: 'cwd',
  restartPolicy: 'restart_policy',
  maxRestarts: 'max_restarts',
  startTimeoutMs: 'start_timeout_ms',
  limits: 'limits',
  isolation: 'isolation',
  sessionMode: 'session_mode',
};
const JSON_FIELDS = new Set<keyof ConfigFields>(['args', 'env', 'limits', 'isolation']);

export async function insertConfig(
  db: Queryable,
  workspaceId: string,
  fields: ConfigFields,
): Promise<DeploymentConfigRow> {
  const keys = Object.keys(COLUMN_OF) as (keyof ConfigFields)[];
  const params: unknown[] = [
    workspaceId,
    ...keys.map((k) => (JSON_FIELDS.has(k) ? JSON.stringify(fields[k]) : fields[k])),
  ];
  const [{ id }] = await db.query<{ id: string }>(
    `insert into deployment_configs (workspace_id, ${keys.map((k) => COLUMN_OF[k]).join(', ')})
     values ($1, ${keys.map((k, i) => (JSON_FIELDS.has(k) ? `$${i + 2}::jsonb` : `$${i + 2}`)).join(', ')}) returning id`,
    params,
  );
  const row = await findConfig(db, id);
  if (!row) throw new Error(`Deployment config ${id} was not found right after its insert`);
  return row;
}

export async function findConfig(db: Queryable, configId: string): Promise<DeploymentConfigRow | undefined> {
  const rows = await db.query<DeploymentConfigRow>(`${SELECT} where c.id = $1`, [configId]);
  return rows[0];
}

export function listConfigs(db: Queryable, workspaceId: string): Promise<DeploymentConfigRow[]> {
  return db.query<DeploymentConfigRow>(`${SELECT} where c.workspace_id = $1 order by c.created_at, c.id`, [
    workspaceId,
  ]);
}

export async function updateConfig(
  db: Queryable,
  configId: string,
  changes: Partial<ConfigFields>,
): Promise<DeploymentConfigRow | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [configId];
  for (const key of Object.keys(changes) as (keyof ConfigFields)[]) {
    if (changes[key] === undefined || !(key in COLUMN_OF)) continue;
    params.push(JSON_FIELDS.has(key) ? JSON.stringify(changes[key]) : changes[key]);
    sets.push(`${COLUMN_OF[key]} = $${params.length}${JSON_FIELDS.has(key) ? '::jsonb' : ''}`);
  }
  sets.push('updated_at = now()');
  await db.query(`update deployment_configs set ${sets.join(', ')} where id = $1`, params);
  return findConfig(db, configId);
}

export async function setConfigServer(db: Queryable, configId: string, serverId: string): Promise<void> {
  await db.query('update deployment_configs set server_id = $2 where id = $1', [configId, serverId]);
}

export async function deleteConfig(db: Queryable, configId: string): Promise<void> {
  await db.query('delete from deployment_configs where id = $1', [configId]);
}
