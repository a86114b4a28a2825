import type { FastifyBaseLogger } from 'fastify';
import type { DeploymentLogLine, DeploymentLogMessage, LogStream } from '../../contract/deployments';
import { LiveMessageTypes } from '../../contract/live';
import type { EventBus } from '../events/bus';
import { LogRing, type LogQuery } from './logRing';

// The logs of the deployments this instance runs: a bounded ring per deployment (readable for a
// while after it stops) and the live tail, whose lines go out in batches every 200 ms rather than
// one live message per line.
const LOG_PUBLISH_MS = 200;
/** Log rings kept for deployments that no longer run (their logs stay readable for a while). */
const MAX_KEPT_RINGS = 200;

export interface LoggedDeployment {
  id: string;
  configId: string;
  workspaceId: string;
}

export class DeploymentLogs {
  private readonly rings = new Map<string, LogRing>();
  private readonly tails = new Map<string, { lines: DeploymentLogLine[]; timer: NodeJS.Timeout }>();

  constructor(
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
    /** Whether a deployment still runs here: its ring is never the one dropped. */
    private readonly isLive: (deploymentId: string) => boolean,
  ) {}

  query(deploymentId: string, query: LogQuery): { lines: DeploymentLogLine[]; hasEarlier: boolean } {
    return this.rings.get(deploymentId)?.query(query) ?? { lines: [], hasEarlier: false };
  }

  ring(deploymentId: string): LogRing {
    let ring = this.rings.get(deploymentId);
    if (!ring) {
      ring = new LogRing();
      this.rings.set(deploymentId, ring);
      if (this.rings.size > MAX_KEPT_RINGS) {
        for (const id of this.rings.keys()) {
          if (!this.isLive(id) && id !== deploymentId) {
            this.rings.delete(id);
            break;
          }
        }
      }
    }
    return ring;
  }

  append(deployment: LoggedDeployment, stream: LogStream, text: string): void {
    const line = this.ring(deployment.id).append(stream, text);
    if (stream === 'stdout')
      this.log.warn({ deploymentId: deployment.id }, 'a deployed program wrote a non-JSON-RPC line to stdout');
    const tail = this.tails.get(deployment.id);
    if (tail) {
      tail.lines.push(line);
      return;
    }
    const timer = setTimeout(() => {
      const lines = this.tails.get(deployment.id)?.lines ?? [];
      this.tails.delete(deployment.id);
      const data: DeploymentLogMessage = { deploymentId: deployment.id, configId: deployment.configId, lines };
      this.bus.publish(deployment.workspaceId, { type: LiveMessageTypes.deploymentLog, data });
    }, LOG_PUBLISH_MS);
    this.tails.set(deployment.id, { lines: [line], timer });
  }

  /** Drops the lines not yet published (Toolscope is stopping). */
  stopTail(deploymentId: string): void {
    clearTimeout(this.tails.get(deploymentId)?.timer);
    this.tails.delete(deploymentId);
  }
}
