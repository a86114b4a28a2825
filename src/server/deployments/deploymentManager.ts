import type { FastifyInstance } from 'fastify';
import type { DeploymentDto, DeploymentLogLine, DeploymentStatus } from '../../contract/deployments';
import { findConfig } from '../data/deployments/configStore';
import {
  claimOrphans,
  insertDeployment,
  recordStatus,
  releaseLease,
  renewLeases,
  setDesiredState,
  wantedDeploymentsOfConfig,
  LEASE_MS,
} from '../data/deployments/deploymentStore';
import {
  toDeploymentDto,
  type DeploymentConfigRow,
  type DeploymentRow,
  type LiveFigures,
} from '../data/deployments/mapper';
import { assertConfigAllowed } from './configRules';
import { programEnvironment } from './programEnvironment';
import { DeploymentLogs } from './deploymentLogs';
import {
  environmentOptions,
  liveFiguresOf,
  runDeployment,
  type LiveDeployment,
  type RestartTally,
  type RunContext,
} from './deploymentRun';
import { ensureDeploymentServer, markDeploymentServerOffline } from './deploymentServer';
import type { LogQuery } from './logRing';
import { LocalProcessRunner } from './localProcessRunner';
import { sweepOrphanedSandboxes } from './sandboxSweep';
import { statusOf, statusOfRow } from './runtimeStatus';

// Runs the deployments this instance owns: starts them through the runner (one run and the states
// it reports: deploymentRun.ts), keeps their status in the database (the API reads it there),
// their logs (deploymentLogs.ts), registers each as a tool server of kind `deployment`
// (deploymentServer.ts), and holds a lease per deployment so that with several instances each one
// runs on exactly one.

export class DeploymentManager {
  private runnerInstance: LocalProcessRunner | null = null;
  private readonly live = new Map<string, LiveDeployment>();
  private readonly logBook: DeploymentLogs;
  private leaseTimer: NodeJS.Timeout | undefined;
  private tickInFlight: Promise<void> | undefined;
  private closing = false;
  /**
   * The operator's admission rules beyond the command allowlist (catalog mode), set by the
   * deployment routes: checked at every deploy and every restore.
   */
  admission: ((config: DeploymentConfigRow) => Promise<void>) | undefined;

  private readonly runs: RunContext;

  constructor(private readonly app: FastifyInstance) {
    this.logBook = new DeploymentLogs(app.bus, app.log, (id) => this.live.has(id));
    this.runs = {
      app,
      runner: () => this.runner,
      logBook: this.logBook,
      live: this.live,
      closing: () => this.closing,
      restarts: { crash: 0, requested: 0 },
    };
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
      readOnlyPaths: this.app.config.sandboxReadOnlyPaths,
      sandboxUidBase: this.app.config.sandboxUidBase,
      bwrapPath: this.app.config.sandboxBwrap,
      egress: {
        allowPrivate: this.app.config.allowPrivateUpstreams,
        allowList: this.app.config.privateUpstreamAllowList,
      },
      // The proxy reaches the bridge even where private upstreams are refused (that one endpoint only).
      onBridgeListening: (address, port) => this.app.outbound.allowInternalEndpoint(address, port),
    });
    return this.runnerInstance;
  }

  /** Restores the deployments that should run (after a restart or a crash of Toolscope) and keeps leases. */
  async start(): Promise<void> {
    if (!this.enabled) return;
    const orphans = sweepOrphanedSandboxes();
    if (orphans.length > 0)
      this.app.log.warn({ pids: orphans }, 'killed deployment sandboxes left without their watchdog');
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
    await Promise.all(running.flatMap((d) => (d.handle ? [d.handle.stop().catch(() => undefined)] : [])));
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
    return liveFiguresOf(this.live.get(deploymentId)?.handle);
  }

  /** What this instance runs, for GET /metrics: programs by status, their memory, restarts and session processes. */
  stats(): {
    byStatus: Partial<Record<DeploymentStatus, number>>;
    memoryBytes: number;
    restarts: RestartTally;
    sessionProcesses: number;
  } {
    const byStatus: Partial<Record<DeploymentStatus, number>> = {};
    let memoryBytes = 0;
    let sessionProcesses = 0;
    for (const d of this.live.values()) {
      const state = d.handle?.state();
      const status: DeploymentStatus = state?.status ?? d.lastStatus ?? (d.row.status as DeploymentStatus);
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      memoryBytes += d.handle?.memoryBytes() ?? 0;
      sessionProcesses += d.handle?.sessionProcesses() ?? 0;
    }
    return { byStatus, memoryBytes, restarts: { ...this.runs.restarts }, sessionProcesses };
  }

  /**
   * The row, with the live state of a program this instance runs laid over it: the row is written
   * after each change, so an answer given right after one (a restart) would otherwise lag behind.
   */
  toDto(row: DeploymentRow): DeploymentDto {
    const live = this.live.get(row.id)?.handle?.state();
    const dto = toDeploymentDto(row, this.liveFigures(row.id));
    if (!live) return dto;
    return {
      ...dto,
      status: live.status,
      pid: live.pid,
      startedAt: live.startedAt ? live.startedAt.toISOString() : dto.startedAt,
      restarts: live.restarts,
    };
  }

  logs(deploymentId: string, query: LogQuery): { lines: DeploymentLogLine[]; hasEarlier: boolean } {
    return this.logBook.query(deploymentId, query);
  }

  /** A new deployment of the config, replacing the ones that run. */
  async deploy(config: DeploymentConfigRow): Promise<DeploymentRow> {
    assertConfigAllowed(config, this.app.config.deploymentCommands, this.runner.hostTools);
    await this.admission?.(config);
    // Resolve first: a reference that cannot be resolved refuses the deploy before anything changes.
    await programEnvironment(this.app.db, config.workspace_id, config.env, environmentOptions(this.app));
    const serverId = await ensureDeploymentServer(this.app, config);
    for (const previous of await wantedDeploymentsOfConfig(this.app.db, config.id)) await this.stop(previous);
    const row = await insertDeployment(this.app.db, {
      workspaceId: config.workspace_id,
      configId: config.id,
      serverId,
      owner: this.app.config.instanceId,
    });
    await runDeployment(this.runs, row, config);
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
    const leaseAlive =
      row.lease_expires_at !== null &&
      new Date(row.lease_expires_at).getTime() > Date.now() &&
      row.owner_instance !== this.app.config.instanceId;
    if (!leaseAlive && row.status !== 'stopped') {
      await recordStatus(this.app.db, row.id, {
        ...statusOfRow(row),
        status: 'stopped',
        pid: null,
        stoppedAt: new Date(),
      });
      await markDeploymentServerOffline(this.app, row.server_id, 'The deployment is stopped');
    }
  }

  async restart(row: DeploymentRow): Promise<boolean> {
    const live = this.live.get(row.id);
    if (!live?.handle) return false;
    this.runs.restarts.requested += 1;
    await live.handle.restart();
    return true;
  }

  /** The config is going away: its deployments stop and its tool server is removed. */
  async forgetConfig(config: DeploymentConfigRow): Promise<void> {
    for (const row of await wantedDeploymentsOfConfig(this.app.db, config.id)) await this.stop(row);
    for (const [id, live] of this.live) if (live.row.config_id === config.id) this.live.delete(id);
  }

  /** Whether close() has begun; a call, so a check after an await reads the field anew. */
  private isClosing(): boolean {
    return this.closing;
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
      if (this.live.has(row.id) || this.isClosing()) continue;
      const config = await findConfig(this.app.db, row.config_id);
      if (!config) continue;
      try {
        assertConfigAllowed(config, this.app.config.deploymentCommands, this.runner.hostTools);
        await this.admission?.(config);
        this.app.log.info({ deploymentId: row.id }, 'starting a deployment that should be running');
        await runDeployment(this.runs, row, config);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await recordStatus(this.app.db, row.id, {
          ...statusOfRow(row),
          status: 'failed',
          pid: null,
          lastError: message,
        });
        await setDesiredState(this.app.db, [row.id], 'stopped');
      }
    }
  }
}
