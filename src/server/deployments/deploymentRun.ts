import type { FastifyInstance } from 'fastify';
import { FINAL_DEPLOYMENT_STATUSES, type DeploymentStatus } from '../../contract/deployments';
import { LiveMessageTypes } from '../../contract/live';
import { deploymentUpdateNotification } from '../notifications/sources/deploymentUpdate';
import { monitorHooks } from '../monitor/monitorHooks';
import { recordStatus, releaseLease, setDesiredState } from '../data/deployments/deploymentStore';
import {
  toDeploymentDto,
  type DeploymentConfigRow,
  type DeploymentRow,
  type LiveFigures,
} from '../data/deployments/mapper';
import { referencedKeys } from './configRules';
import { programEnvironment, resolveKeyReferences, workingFolder } from './programEnvironment';
import type { DeploymentLogs } from './deploymentLogs';
import { markDeploymentServerOffline, pointDeploymentServer } from './deploymentServer';
import type { LocalProcessRunner } from './localProcessRunner';
import { secretMasker } from './secretMasker';
import type { DeploymentSpec, RunningDeployment, RuntimeState } from './runner';
import { statusOf } from './runtimeStatus';

// One deployment this instance runs (deploymentManager.ts decides which, and when): started
// through the runner with its environment and masked logs, its tool server pointed at the runner's
// endpoint, and every state the runner reports recorded in order — the row, the live stream, the
// tool server's health, the lease of a settled one, a deployment_update notification.

const NOTIFIED: readonly DeploymentStatus[] = ['running', 'crashed', 'failed'];
const OFFLINE: readonly DeploymentStatus[] = ['restarting', 'crashed', 'failed', 'stopped', 'pending'];

export interface LiveDeployment {
  row: DeploymentRow;
  configName: string;
  handle: RunningDeployment | null;
  /** Status writes in order, one at a time. */
  writes: Promise<void>;
  lastStatus: DeploymentStatus | null;
  /** The restart count last reported (the row's when this instance took it over). */
  restartsSeen: number;
}

/**
 * Restarts this instance performed since it started, by reason: what GET /metrics counts. Only
 * ever grows — a deployment that settles or goes away keeps its restarts counted, and the restarts
 * a row carries from before (another instance, an earlier run of Toolscope) are not counted again.
 */
export interface RestartTally {
  /** Restarts by the restart policy after the program ended. */
  crash: number;
  /** Restarts asked for (POST …/restart). */
  requested: number;
}

/** What a run needs of the manager. */
export interface RunContext {
  app: FastifyInstance;
  runner: () => LocalProcessRunner;
  logBook: DeploymentLogs;
  /** The deployments this instance runs, by id. */
  live: Map<string, LiveDeployment>;
  /** close() has begun. */
  closing: () => boolean;
  restarts: RestartTally;
}

/** The figures only the running program knows (memory, session processes). */
export function liveFiguresOf(handle: RunningDeployment | null | undefined): LiveFigures | undefined {
  if (!handle) return undefined;
  return { memoryBytes: handle.memoryBytes(), sessionProcesses: handle.sessionProcesses() };
}

/** The program's environment options of this Toolscope (PATH, HOME, the secret that unseals keys). */
export function environmentOptions(app: FastifyInstance): { path: string; home: string; secret: string } {
  return { path: app.config.deploymentPath, home: app.config.deploymentHome, secret: app.config.secret };
}

/** Starts a deployment row this instance owns. */
export async function runDeployment(ctx: RunContext, row: DeploymentRow, config: DeploymentConfigRow): Promise<void> {
  const env = await programEnvironment(ctx.app.db, config.workspace_id, config.env, environmentOptions(ctx.app));
  const spec: DeploymentSpec = {
    deploymentId: row.id,
    workspaceId: row.workspace_id,
    configId: config.id,
    name: config.name,
    command: config.command,
    args: config.args,
    env,
    folder: workingFolder(ctx.app.config.dataDir, config.id, ''),
    cwd: workingFolder(ctx.app.config.dataDir, config.id, config.cwd),
    restartPolicy: config.restart_policy as DeploymentSpec['restartPolicy'],
    maxRestarts: config.max_restarts,
    startTimeoutMs: config.start_timeout_ms,
    limits: config.limits,
    isolation: config.isolation,
    sessionMode: config.session_mode as DeploymentSpec['sessionMode'],
    restarts: row.restarts,
  };
  // The values of the workspace keys it was given, masked in every log line it writes.
  const keyNames = referencedKeys(config.env);
  const keyValues = await resolveKeyReferences(
    ctx.app.db,
    config.workspace_id,
    Object.fromEntries(keyNames.map((name) => [name, `{{key:${name}}}`])),
    ctx.app.config.secret,
  );
  const mask = secretMasker(Object.values(keyValues));
  const ring = ctx.logBook.ring(row.id);
  // Status writes wait until the tool server points at the runner's endpoint: a deployment shown
  // `running` must be reachable (a per-session runner reports running before start returns).
  let pointed!: () => void;
  const serverPointed = new Promise<void>((resolve) => (pointed = resolve));
  const live: LiveDeployment = {
    row,
    configName: config.name,
    handle: null,
    writes: serverPointed,
    lastStatus: null,
    restartsSeen: row.restarts,
  };
  ctx.live.set(row.id, live);
  try {
    const handle = await ctx.runner().start(spec, {
      state: (state) => recordDeploymentState(ctx, live, state),
      log: (stream, text) =>
        ctx.logBook.append(
          { id: live.row.id, configId: live.row.config_id, workspaceId: live.row.workspace_id },
          stream,
          mask(text),
        ),
      recentStderr: (n) => ring.tail('stderr', n),
    });
    live.handle = handle;
    if (row.server_id) await pointDeploymentServer(ctx.app, row.workspace_id, row.server_id, handle.endpoint);
  } finally {
    pointed();
  }
}

/** Records a state the runner reported, after the ones before it. */
function recordDeploymentState(ctx: RunContext, live: LiveDeployment, state: RuntimeState): void {
  const changed = state.status !== live.lastStatus;
  live.lastStatus = state.status;
  if (state.restarts > live.restartsSeen) ctx.restarts.crash += state.restarts - live.restartsSeen;
  live.restartsSeen = state.restarts;
  live.writes = live.writes
    .then(async () => {
      const row = await recordStatus(ctx.app.db, live.row.id, statusOf(state));
      if (!row) return;
      live.row = row;
      ctx.app.bus.publish(row.workspace_id, {
        type: LiveMessageTypes.deploymentUpdated,
        data: toDeploymentDto(row, liveFiguresOf(ctx.live.get(row.id)?.handle)),
      });
      if (!changed || ctx.closing()) return;
      if (state.status === 'running' && row.server_id) {
        const hooks = monitorHooks(ctx.app);
        if (hooks.healthMonitor) await hooks.healthMonitor.checkNow(row.server_id).catch(() => undefined);
        hooks.schemaDiscovery?.discoverInBackground(row.server_id);
      }
      if (OFFLINE.includes(state.status))
        await markDeploymentServerOffline(ctx.app, row.server_id, `The deployment is ${state.status}`);
      if (FINAL_DEPLOYMENT_STATUSES.includes(state.status)) {
        // Settled: nothing runs, nothing restarts it, and Toolscope's next start leaves it be.
        ctx.live.delete(row.id);
        await setDesiredState(ctx.app.db, [row.id], 'stopped');
        await releaseLease(ctx.app.db, row.id);
      }
      if (NOTIFIED.includes(state.status)) {
        await ctx.app.notifications
          .raise(
            deploymentUpdateNotification({
              workspaceId: row.workspace_id,
              deploymentId: row.id,
              configName: live.configName,
              status: state.status,
              error: state.status === 'running' ? null : state.lastError,
            }),
          )
          .catch((error: unknown) => ctx.app.log.warn({ err: error }, 'deployment notification failed'));
      }
    })
    .catch((error: unknown) => ctx.app.log.error({ err: error }, 'recording a deployment status failed'));
}
