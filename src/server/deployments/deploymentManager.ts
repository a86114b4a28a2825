import type { FastifyInstance } from 'fastify';
import { FINAL_DEPLOYMENT_STATUSES, type DeploymentDto, type DeploymentLogLine, type DeploymentStatus } from '../../contract/deployments';
import { LiveMessageTypes } from '../../contract/live';
import { deploymentUpdateNotification } from '../notifications/sources/deploymentUpdate';
import { monitorHooks } from '../modules/servers/monitorHooks';
import { findConfig } from '../modules/deployments/configStore';
import {
  claimOrphans,
  insertDeployment,
  recordStatus,
  releaseLease,
  renewLeases,
  setDesiredState,
  wantedDeploymentsOfConfig,
  LEASE_MS,
} from '../modules/deployments/deploymentStore';
import { toDeploymentDto, type DeploymentConfigRow, type DeploymentRow, type LiveFigures } from '../modules/deployments/mapper';
import { assertConfigAllowed } from '../modules/deployments/configRules';
import { programEnvironment, workingFolder } from '../modules/deployments/programEnvironment';
import { DeploymentLogs } from './deploymentLogs';
import { ensureDeploymentServer, markDeploymentServerOffline, pointDeploymentServer } from './deploymentServer';
import type { LogQuery } from './logRing';
import { LocalProcessRunner } from './localProcessRunner';
import type { DeploymentSpec, RunningDeployment, RuntimeState } from './runner';
import { statusOf, statusOfRow } from './runtimeStatus';

// Runs the deployments this instance owns: starts them through the runner, keeps their status in
// the database (the API reads it there), their logs (deploymentLogs.ts), registers each as a
// tool server of kind `deployment` pointed at the runner's endpoint (deploymentServer.ts), and holds a lease per
// deployment so that with several instances each one runs on exactly one. Status changes and log
// lines go out on the live stream; settled failures raise a deployment_update notification.
const NOTIFIED: readonly DeploymentStatus[] = ['running', 'crashed', 'failed'];
const OFFLINE: readonly DeploymentStatus[] = ['restarting', 'crashed', 'failed', 'stopped', 'pending'];

interface LiveDeployment {
  row: DeploymentRow;
  configName: string;
  handle: RunningDeployment | null;
  /** Status writes in order, one at a time. */
  writes: Promise<void>;
  lastStatus: DeploymentStatus | null;
}

export class DeploymentManager {
  private runnerInstance: LocalProcessRunner | null = null;
  private readonly live = new Map<string, LiveDeployment>();
  private readonly logBook: DeploymentLogs;
  private leaseTimer: NodeJS.Timeout | undefined;
  private tickInFlight: Promise<void> | undefined;
  private closing = false;

  constructor(private readonly app: FastifyInstance) {
    this.logBook = new DeploymentLogs(app.bus, app.log, (id) => this.live.has(id));
  }

  get enabled(): boolean {
    return this.app.config.deploymentsEnabled;
  }

  get runner(): LocalProcessRunner {
    this.runnerInstance ??= new LocalProcessRunner({
      bridgeHost: this.app.config.deploymentBridgeHost,
      bridgePort: this.app.config.deploymentBridgePort,
      bridgeUrl: this.app.config.deploymentBridgeUrl,
      stopGraceMs: this.app.config.deploymentStopGraceMs,
      version: this.app.config.version,
      searchPath: this.app.config.deploymentPath,
      // The proxy reaches the bridge even where private upstreams are refused (that one endpoint only).
      onBridgeListening: (address, port) => this.app.outbound.allowInternalEndpoint(address, port),
    });
    return this.runnerInstance;
  }

  /** Restores the deployments that should run (after a restart or a crash of Toolscope) and keeps leases. */
  async start(): Promise<void> {
    if (!this.enabled) return;
    await this.tick();
    const every = Math.floor(LEASE_MS / 3);
    const schedule = () => {
      this.leaseTimer = setTimeout(() => {
        this.tickInFlight = this.tick()
          .catch((error: unknown) => this.app.log.error({ err: error }, 'deployment lease round failed'))
          .finally(() => {
            this.tickInFlight = undefined;
            if (!this.closing) schedule();
          });
      }, every);
      this.leaseTimer.unref();
    };
    schedule();
  }

  /** Stops every program this instance runs; they start again when Toolscope does. */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.leaseTimer);
    await this.tickInFlight;
    const running = [...this.live.values()];
    await Promise.all(running.map((d) => d.handle?.stop().catch(() => undefined)));
    await Promise.all(running.map((d) => d.writes));
    for (const d of running) {
      this.logBook.stopTail(d.row.id);
      await recordStatus(this.app.db, d.row.id, {
        ...statusOf(d.handle?.state()),
        status: 'pending',
        lastError: 'Toolscope stopped; the deployment starts again when it does',
      }).catch(() => undefined);
      await releaseLease(this.app.db, d.row.id).catch(() => undefined);
    }
    this.live.clear();
    await this.runnerInstance?.close();
  }

  isLive(deploymentId: string): boolean {
    return this.live.has(deploymentId);
  }

  liveFigures(deploymentId: string): LiveFigures | undefined {
    const handle = this.live.get(deploymentId)?.handle;
    if (!handle) return undefined;
    return { memoryBytes: handle.memoryBytes(), sessionProcesses: handle.sessionProcesses() };
  }

  /** What this instance runs, for GET /metrics: programs by status, their memory, restarts and session processes. */
  stats(): { byStatus: Partial<Record<DeploymentStatus, number>>; memoryBytes: number; restarts: number; sessionProcesses: number } {
    const byStatus: Partial<Record<DeploymentStatus, number>> = {};
    let memoryBytes = 0;
    let restarts = 0;
    let sessionProcesses = 0;
    for (const d of this.live.values()) {
      const state = d.handle?.state();
      const status: DeploymentStatus = state?.status ?? d.lastStatus ?? (d.row.status as DeploymentStatus);
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      memoryBytes += d.handle?.memoryBytes() ?? 0;
      restarts += state?.restarts ?? 0;
      sessionProcesses += d.handle?.sessionProcesses() ?? 0;
    }
    return { byStatus, memoryBytes, restarts, sessionProcesses };
  }

  toDto(row: DeploymentRow): DeploymentDto {
    return toDeploymentDto(row, this.liveFigures(row.id));
  }

  logs(deploymentId: string, query: LogQuery): { lines: DeploymentLogLine[]; hasEarlier: boolean } {
    return this.logBook.query(deploymentId, query);
  }

  /** A new deployment of the config, replacing the ones that run. */
  async deploy(config: DeploymentConfigRow): Promise<DeploymentRow> {
    assertConfigAllowed(config, this.app.config.deploymentCommands, this.runner.hostTools);
    // Resolve first: a reference that cannot be resolved refuses the deploy before anything changes.
    await programEnvironment(this.app.db, config.workspace_id, config.env, { path: this.app.config.deploymentPath, home: this.app.config.deploymentHome, secret: this.app.config.secret });
    const serverId = await ensureDeploymentServer(this.app, config);
    for (const previous of await wantedDeploymentsOfConfig(this.app.db, config.id)) await this.stop(previous);
    const row = await insertDeployment(this.app.db, { workspaceId: config.workspace_id, configId: config.id, serverId, owner: this.app.config.instanceId });
    await this.run(row, config);
    return row;
  }

  async stop(row: DeploymentRow): Promise<void> {
    await setDesiredState(this.app.db, [row.id], 'stopped');
    const live = this.live.get(row.id);
    if (live?.handle) {
      await live.handle.stop();
      await live.writes;
      this.live.delete(row.id);
      return;
    }
    // Not run here: its owner sees desired_state at its next lease round; nobody's → settle it now.
    const leaseAlive = row.lease_expires_at !== null && new Date(row.lease_expires_at).getTime() > Date.now() && row.owner_instance !== this.app.config.instanceId;
    if (!leaseAlive && row.status !== 'stopped') {
      await recordStatus(this.app.db, row.id, { ...statusOfRow(row), status: 'stopped', pid: null, stoppedAt: new Date() });
      await markDeploymentServerOffline(this.app, row.server_id, 'The deployment is stopped');
    }
  }

  async restart(row: DeploymentRow): Promise<boolean> {
    const live = this.live.get(row.id);
    if (!live?.handle) return false;
    await live.handle.restart();
    return true;
  }

  /** The config is going away: its deployments stop and its tool server is removed. */
  async forgetConfig(config: DeploymentConfigRow): Promise<void> {
    for (const row of await wantedDeploymentsOfConfig(this.app.db, config.id)) await this.stop(row);
    for (const [id, live] of this.live) if (live.row.config_id === config.id) this.live.delete(id);
  }

  /** Starts a deployment row this instance owns. */
  private async run(row: DeploymentRow, config: DeploymentConfigRow): Promise<void> {
    const env = await programEnvironment(this.app.db, config.workspace_id, config.env, { path: this.app.config.deploymentPath, home: this.app.config.deploymentHome, secret: this.app.config.secret });
    const spec: DeploymentSpec = {
      deploymentId: row.id,
      workspaceId: row.workspace_id,
      configId: config.id,
      name: config.name,
      command: config.command,
      args: config.args,
      env,
      cwd: workingFolder(this.app.config.dataDir, config.id, config.cwd),
      restartPolicy: config.restart_policy as DeploymentSpec['restartPolicy'],
      maxRestarts: config.max_restarts,
      startTimeoutMs: config.start_timeout_ms,
      limits: config.limits,
      isolation: config.isolation,
      sessionMode: config.session_mode as DeploymentSpec['sessionMode'],
      restarts: row.restarts,
    };
    const ring = this.logBook.ring(row.id);
    // Status writes wait until the tool server points at the runner's endpoint: a deployment shown
    // `running` must be reachable (a per-session runner reports running before start returns).
    let pointed!: () => void;
    const serverPointed = new Promise<void>((resolve) => (pointed = resolve));
    const live: LiveDeployment = { row, configName: config.name, handle: null, writes: serverPointed, lastStatus: null };
    this.live.set(row.id, live);
    try {
      const handle = await this.runner.start(spec, {
        state: (state) => this.onState(live, state),
        log: (stream, text) => this.logBook.append({ id: live.row.id, configId: live.row.config_id, workspaceId: live.row.workspace_id }, stream, text),
        recentStderr: (n) => ring.tail('stderr', n),
      });
      live.handle = handle;
      if (row.server_id) await pointDeploymentServer(this.app, row.workspace_id, row.server_id, handle.endpoint);
    } finally {
      pointed();
    }
  }

  private onState(live: LiveDeployment, state: RuntimeState): void {
    const changed = state.status !== live.lastStatus;
    live.lastStatus = state.status;
    live.writes = live.writes
      .then(async () => {
        const row = await recordStatus(this.app.db, live.row.id, statusOf(state));
        if (!row) return;
        live.row = row;
        this.app.bus.publish(row.workspace_id, { type: LiveMessageTypes.deploymentUpdated, data: this.toDto(row) });
        if (!changed || this.closing) return;
        if (state.status === 'running' && row.server_id) {
          const hooks = monitorHooks(this.app);
          if (hooks.healthMonitor) await hooks.healthMonitor.checkNow(row.server_id).catch(() => undefined);
          hooks.schemaDiscovery?.discoverInBackground(row.server_id);
        }
        if (OFFLINE.includes(state.status)) await markDeploymentServerOffline(this.app, row.server_id, `The deployment is ${state.status}`);
        if (FINAL_DEPLOYMENT_STATUSES.includes(state.status)) {
          // Settled: nothing runs, nothing restarts it, and Toolscope's next start leaves it be.
          this.live.delete(row.id);
          await setDesiredState(this.app.db, [row.id], 'stopped');
          await releaseLease(this.app.db, row.id);
        }
        if (NOTIFIED.includes(state.status)) {
          await this.app.notifications
            .raise(deploymentUpdateNotification({ workspaceId: row.workspace_id, deploymentId: row.id, configName: live.configName, status: state.status, error: state.status === 'running' ? null : state.lastError }))
            .catch((error: unknown) => this.app.log.warn({ err: error }, 'deployment notification failed'));
        }
      })
      .catch((error: unknown) => this.app.log.error({ err: error }, 'recording a deployment status failed'));
  }

  /** One lease round: renew ours, stop the ones stopped elsewhere, claim the ones nobody runs. */
  private async tick(): Promise<void> {
    const instance = this.app.config.instanceId;
    const renewed = await renewLeases(this.app.db, instance, [...this.live.keys()]);
    for (const row of renewed) {
      if (row.desired_state === 'stopped' && this.live.has(row.id)) await this.stop(row);
    }
    if (this.closing) return;
    for (const row of await claimOrphans(this.app.db, instance)) {
      if (this.live.has(row.id) || this.closing) continue;
      const config = await findConfig(this.app.db, row.config_id);
      if (!config) continue;
      try {
        assertConfigAllowed(config, this.app.config.deploymentCommands, this.runner.hostTools);
        this.app.log.info({ deploymentId: row.id }, 'starting a deployment that should be running');
        await this.run(row, config);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await recordStatus(this.app.db, row.id, { ...statusOfRow(row), status: 'failed', pid: null, lastError: message });
        await setDesiredState(this.app.db, [row.id], 'stopped');
      }
    }
  }
}
