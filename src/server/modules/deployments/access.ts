import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MemberRole } from '../../../contract/workspaces';
import { requireWorkspaceRole } from '../../auth/workspaceAccess';
import { forbidden, notFound } from '../../http/errors';
import { referencedKeys } from '../../deployments/configRules';
import { findConfig } from '../../data/deployments/configStore';
import { findDeployment } from '../../data/deployments/deploymentStore';
import type { DeploymentConfigRow, DeploymentRow } from '../../data/deployments/mapper';

// Every deployment route reaches its workspace through a stored row (or the body's workspace_id),
// so each loads the row and checks the caller's membership and role of that workspace with the one
// helper; a row of another workspace is "not found", exactly like a row that does not exist.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONFIG_NOT_FOUND = 'Deployment config not found';
const DEPLOYMENT_NOT_FOUND = 'Deployment not found';

export async function configFor(
  request: FastifyRequest,
  configId: string,
  minRole: MemberRole,
): Promise<DeploymentConfigRow> {
  const config = UUID.test(configId) ? await findConfig(request.server.db, configId) : undefined;
  if (!config) throw notFound(CONFIG_NOT_FOUND);
  await requireWorkspaceRole(request, config.workspace_id, minRole, CONFIG_NOT_FOUND);
  return config;
}

export async function deploymentFor(
  request: FastifyRequest,
  deploymentId: string,
  minRole: MemberRole,
): Promise<DeploymentRow> {
  const row = UUID.test(deploymentId) ? await findDeployment(request.server.db, deploymentId) : undefined;
  if (!row) throw notFound(DEPLOYMENT_NOT_FOUND);
  await requireWorkspaceRole(request, row.workspace_id, minRole, DEPLOYMENT_NOT_FOUND);
  return row;
}

/**
 * A deployment whose program is given workspace keys may print them: its logs are masked, but a
 * value printed transformed cannot be, so its status and logs are for owners and admins (403 to a
 * member); a deployment given no key is readable by every member.
 */
export async function readableDeploymentFor(request: FastifyRequest, deploymentId: string): Promise<DeploymentRow> {
  const row = await deploymentFor(request, deploymentId, 'member');
  const config = await findConfig(request.server.db, row.config_id);
  if (config && referencedKeys(config.env).length > 0) {
    await requireWorkspaceRole(request, row.workspace_id, 'admin', DEPLOYMENT_NOT_FOUND).catch(() => {
      throw forbidden(
        "This deployment's program is given workspace keys, so its status and logs are readable by owners and admins only",
      );
    });
  }
  return row;
}

/** Programs run only where the operator turned deployments on. */
export function assertDeploymentsEnabled(app: FastifyInstance): void {
  if (!app.config.deploymentsEnabled) {
    throw forbidden(
      'Deployments are off on this Toolscope. An operator turns them on with TOOLSCOPE_DEPLOYMENTS=on and a restart.',
    );
  }
}
