import type { FastifyInstance } from 'fastify';
import { encryptCredentials } from '../data/servers/credentials';
import { insertServer, recordHealth, updateServer } from '../data/servers/store';
import { loadServerById, publishServerUpdated } from '../monitor/serverUpdates';
import { setConfigServer } from '../data/deployments/configStore';
import type { DeploymentConfigRow } from '../data/deployments/mapper';
import type { RunningDeployment } from './runner';

// A deployment is reached like any other tool server: one server row of kind `deployment` per
// config, named after it, pointed at the runner's endpoint while the deployment runs (the proxy,
// the health monitor and discovery need nothing else), and marked offline when it does not.

/** The config's tool server: its existing one (renamed with the config), or a new one that points nowhere yet. */
export async function ensureDeploymentServer(app: FastifyInstance, config: DeploymentConfigRow): Promise<string> {
  if (config.server_id) {
    const existing = await loadServerById(app, config.server_id);
    if (existing) {
      if (existing.name !== config.name || existing.description !== config.description) {
        await updateServer(app.db, config.workspace_id, existing.id, {
          name: config.name,
          description: config.description,
        });
      }
      return existing.id;
    }
  }
  // Points nowhere until the runner hands out the endpoint (the proxy answers "unreachable").
  const server = await insertServer(app.db, {
    workspaceId: config.workspace_id,
    name: config.name,
    url: 'http://127.0.0.1:9/not-started',
    description: config.description,
    transport: 'streamable-http',
    credentialsEnc: null,
  });
  await app.db.query(`update servers set kind = 'deployment' where id = $1`, [server.id]);
  await setConfigServer(app.db, config.id, server.id);
  return server.id;
}

/** Points the tool server at the runner's endpoint, with the bridge's token as its credentials. */
export async function pointDeploymentServer(
  app: FastifyInstance,
  workspaceId: string,
  serverId: string,
  endpoint: RunningDeployment['endpoint'],
): Promise<void> {
  const server = await updateServer(app.db, workspaceId, serverId, {
    url: endpoint.url,
    credentialsEnc: encryptCredentials(endpoint.headers, app.config.secret),
  });
  // The proxy's pooled connection to the old endpoint is dropped.
  if (server) app.upstreams.forget(server.proxy_key);
}

/** The deployment stopped answering (restarting, crashed, stopped…): its server shows offline at once. */
export async function markDeploymentServerOffline(
  app: FastifyInstance,
  serverId: string | null,
  reason: string,
): Promise<void> {
  if (!serverId) return;
  await recordHealth(app.db, serverId, false, reason);
  const server = await loadServerById(app, serverId);
  if (server) publishServerUpdated(app, server);
}
