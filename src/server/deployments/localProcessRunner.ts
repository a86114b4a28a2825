import fs from 'node:fs';
import { BridgeServer } from './bridgeServer';
import { detectHostTools, wrapCommand, type HostTools } from './hostIsolation';
import { PerSessionBridge } from './perSessionBridge';
import { PerSessionDeployment } from './perSessionDeployment';
import { launchProgram } from './processLauncher';
import { stopProgram } from './programStopper';
import type { DeploymentObserver, DeploymentRunner, DeploymentSpec, RunningDeployment } from './runner';
import { SharedBridge } from './sharedBridge';
import { SharedDeployment } from './sharedDeployment';
import { StdioChannel } from './stdioChannel';

// The runner that starts programs on this host, each under its watchdog in a process group of
// its own, bridged to Streamable HTTP by this process (bridgeServer.ts).
export interface LocalRunnerOptions {
  bridgeHost: string;
  bridgePort: number;
  bridgeUrl?: string;
  stopGraceMs: number;
  version: string;
  /** PATH to look for prlimit/unshare on. */
  searchPath: string | undefined;
  /** Told where the bridge listens (the outbound policy must let the proxy reach it). */
  onBridgeListening?: (address: string, port: number) => void;
}

/** Agent sessions quiet this long are closed (health probes and agents often leave without DELETE). */
const SESSION_IDLE_MS = 10 * 60_000;
const SHARED_MAX_SESSIONS = 1_000;
const PER_SESSION_MAX = 32;

export class LocalProcessRunner implements DeploymentRunner {
  readonly name = 'local';
  readonly hostTools: HostTools;
  private readonly bridgeServer: BridgeServer;
  private readonly running = new Set<RunningDeployment>();

  constructor(private readonly options: LocalRunnerOptions) {
    this.hostTools = detectHostTools(options.searchPath);
    this.bridgeServer = new BridgeServer({ host: options.bridgeHost, port: options.bridgePort, advertisedUrl: options.bridgeUrl, onListening: options.onBridgeListening });
  }

  /** The bridge's base URL (starts listening on first use). */
  bridgeBaseUrl(): Promise<string> {
    return this.bridgeServer.baseUrl();
  }

  async start(spec: DeploymentSpec, observer: DeploymentObserver): Promise<RunningDeployment> {
    fs.mkdirSync(spec.cwd, { recursive: true, mode: 0o700 });
    const argv = wrapCommand(this.hostTools, spec.command, spec.args, spec.limits, spec.isolation);
    const launch = () => launchProgram({ argv, env: spec.env, cwd: spec.cwd });
    const forget = (deployment: RunningDeployment) => () => {
      this.bridgeServer.remove(spec.deploymentId);
      this.running.delete(deployment);
    };

    if (spec.sessionMode === 'per-session') {
      const bridge = new PerSessionBridge(
        {
          start: async () => {
            const program = launch();
            const channel = new StdioChannel(program);
            channel.onStderr = (line) => observer.log('stderr', line);
            channel.onStray = (line) => observer.log('stdout', `Not JSON-RPC, not passed to agents: ${line}`);
            const pid = await program.started;
            observer.log('system', `Session process started (pid ${pid})`);
            void program.exited.then((exit) => observer.log('system', `Session process ${pid} ended (${exit.signal ?? `code ${exit.code}`})`));
            return channel;
          },
          stop: (channel) => stopProgram(channel.program, this.options.stopGraceMs),
        },
        { idleMs: SESSION_IDLE_MS, maxSessions: PER_SESSION_MAX },
      );
      const endpoint = await this.bridgeServer.add(spec.deploymentId, bridge);
      let deployment!: PerSessionDeployment;
      deployment = new PerSessionDeployment(endpoint, bridge, observer, spec.restarts, () => forget(deployment)());
      this.running.add(deployment);
      deployment.begin();
      return deployment;
    }

    const bridge = new SharedBridge({ idleMs: SESSION_IDLE_MS, maxSessions: SHARED_MAX_SESSIONS });
    const endpoint = await this.bridgeServer.add(spec.deploymentId, bridge);
    let deployment!: SharedDeployment;
    deployment = new SharedDeployment({
      spec,
      observer,
      bridge,
      endpoint,
      launch,
      stopGraceMs: this.options.stopGraceMs,
      version: this.options.version,
      onStopped: () => forget(deployment)(),
    });
    this.running.add(deployment);
    deployment.begin();
    return deployment;
  }

  async close(): Promise<void> {
    await Promise.all([...this.running].map((deployment) => deployment.stop().catch(() => undefined)));
    await this.bridgeServer.close();
  }
}
