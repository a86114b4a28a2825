import type { DeploymentDto, DeploymentLogMessage } from '../../../contract/deployments';
import type { AppDispatch } from '../../app/rootState';
import { deploymentsApi } from './deploymentsApi';

// What the live stream's deployment messages change: the status of a config's latest deployment
// in the cached list (the chip moves without a refetch), and the lines of an open log viewer.
/** Lines an open viewer keeps from the live tail; older ones are reached with "Load earlier lines". */
export const LIVE_TAIL_LINES = 2_000;

export function deploymentUpdated(dispatch: AppDispatch, workspaceId: string, deployment: DeploymentDto): void {
  dispatch(
    deploymentsApi.util.updateQueryData('getDeploymentConfigs', workspaceId, (draft) => {
      const config = draft.find((c) => c.id === deployment.configId);
      if (!config) return;
      const latest = config.latestDeployment;
      // A status of an older deployment (one a new deploy replaced) must not overwrite the newer.
      if (!latest || latest.id === deployment.id || Date.parse(deployment.createdAt) >= Date.parse(latest.createdAt)) {
        config.latestDeployment = deployment;
        if (deployment.serverId) config.serverId = deployment.serverId;
      }
    }),
  );
}

export function deploymentLogged(dispatch: AppDispatch, message: DeploymentLogMessage): void {
  dispatch(
    deploymentsApi.util.updateQueryData('getDeploymentLogs', { deploymentId: message.deploymentId }, (draft) => {
      const lastSeq = draft.lines.length > 0 ? draft.lines[draft.lines.length - 1].seq : 0;
      for (const line of message.lines) if (line.seq > lastSeq) draft.lines.push(line);
      if (draft.lines.length > LIVE_TAIL_LINES) {
        draft.lines.splice(0, draft.lines.length - LIVE_TAIL_LINES);
        draft.hasEarlier = true;
      }
    }),
  );
}
