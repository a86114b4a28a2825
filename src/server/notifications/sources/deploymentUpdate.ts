import type { DeploymentStatus } from '../../../contract/deployments';
import type { NotificationSeverity } from '../../../contract/notifications';
import type { RaiseInput } from '../NotificationService';

export type { DeploymentStatus };

export interface DeploymentChange {
  workspaceId: string;
  deploymentId: string;
  configName: string;
  status: DeploymentStatus;
  error?: string | null;
}

const SEVERITY: Record<DeploymentStatus, NotificationSeverity> = {
  pending: 'info',
  starting: 'info',
  running: 'success',
  restarting: 'warning',
  crashed: 'error',
  failed: 'error',
  stopped: 'warning',
};

/**
 * deployment_update: the deployments module calls
 * `app.notifications.raise(deploymentUpdateNotification(change))` on each status change. One
 * notification per deployment is bumped as it moves on, so a deploy reads as one line.
 */
export function deploymentUpdateNotification(change: DeploymentChange): RaiseInput {
  return {
    workspaceId: change.workspaceId,
    type: 'deployment_update',
    severity: SEVERITY[change.status],
    title: `Deployment ${change.status.charAt(0).toUpperCase()}${change.status.slice(1)}`,
    message: `${change.configName}: deployment is ${change.status}${change.error ? ` (${change.error})` : ''}`,
    // The Hosted section of /servers shows deployments (docs/deployments.md).
    actionUrl: `/servers?deploymentId=${encodeURIComponent(change.deploymentId)}`,
    metadata: { deploymentId: change.deploymentId, configName: change.configName, status: change.status },
    groupKey: `deployment:${change.deploymentId}`,
  };
}
