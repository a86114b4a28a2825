import fs from 'node:fs';
import path from 'node:path';
import { BridgeServer } from './bridgeServer';
import { detectHostTools, type HostTools } from './hostIsolation';
import { PerSessionBridge } from './perSessionBridge';
import { PerSessionDeployment } from './perSessionDeployment';
import { launchProgram, type WatchdogNetwork } from './processLauncher';
import { stopProgram } from './programStopper';
import type { DeploymentObserver, DeploymentRunner, DeploymentSpec, RunningDeployment } from './runner';
import { sandboxArgv, sandboxUid } from './sandbox';
import { egressRoutes, SLIRP_DNS, type EgressPolicy } from './sandboxNetwork';
import { SharedBridge } from './sharedBridge';
import { SharedDeployment } from './sharedDeployment';
import { StdioChannel } from './stdioChannel';

// The runner that starts programs on this host, each in a sandbox of its own (sandbox.ts) under its
// watchdog in a process group of its own, bridged to Streamable HTTP by this process (bridgeServer.ts).
export interface LocalRunnerOptions {
  bridgeHost: string;
  bridgePort: number;
  bridgeUrl?: string;
  stopGraceMs: number;
  version: string;
  /** PATH to look for bwrap/setpriv/prlimit on. */
  searchPath: string | undefined;
  /** Host folders every sandbox sees read-only (package folders, the node install). */
  readOnlyPaths: string[];
  /** First host uid of the per-deployment uids (when Toolscope runs as root). */
  sandboxUidBase: number;
  /** The operator's bubblewrap binary; default: bwrap on the path. */
  bwrapPath?: string;
  /** The outbound policy a deployment's egress follows (sandboxNetwork.ts). */
  egress: EgressPolicy;
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
    this.hostTools = detectHostTools(options.searchPath, options.bwrapPath);
    this.bridgeServer = new BridgeServer({
      host: options.bridgeHost,
      port: options.bridgePort,
      advertisedUrl: options.bridgeUrl,
      onListening: options.onBridgeListening,
    });
  }

  /** The bridge's base URL (starts listening on first use). */
  bridgeBaseUrl(): Promise<string> {
    return this.bridgeServer.baseUrl();
  }

  async start(spec: DeploymentSpec, observer: DeploymentObserver): Promise<RunningDeployment> {
    const hostUid = runsAsRoot() ? sandboxUid(spec.configId, this.options.sandboxUidBase) : null;
    prepareFolder(spec.folder, spec.cwd, hostUid, this.options.sandboxUidBase);
    const network = this.networkFor(spec, hostUid === null);
    const argv = sandboxArgv(this.hostTools, {
      command: spec.command,
      args: spec.args,
      limits: spec.limits,
      relativeCwd: path.relative(spec.folder, spec.cwd),
      readOnlyPaths: this.options.readOnlyPaths,
      hostUid,
      hostGid: this.options.sandboxUidBase,
      network: network ? { resolvConf: network.resolvConf } : null,
    });
    // The watchdog runs outside the sandbox, in a folder that holds nothing (the program's own
    // cwd is set inside by bwrap).
    const launch = () =>
      launchProgram({ argv, env: spec.env, cwd: '/', folder: spec.folder, network: network?.watchdog });
    if (!network && !spec.isolation.noNetwork)
      observer.log('system', 'No network: this host has no slirp4netns (Debian package slirp4netns)');
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
            void program.exited.then((exit) =>
              observer.log('system', `Session process ${pid} ended (${exit.signal ?? `code ${exit.code}`})`),
            );
            return channel;
          },
          stop: (channel) => stopProgram(channel.program, this.options.stopGraceMs),
        },
        { idleMs: SESSION_IDLE_MS, maxSessions: PER_SESSION_MAX },
      );
      const endpoint = await this.bridgeServer.add(spec.deploymentId, bridge);
      const deployment: PerSessionDeployment = new PerSessionDeployment(endpoint, bridge, observer, spec.restarts, () =>
        forget(deployment)(),
      );
      this.running.add(deployment);
      deployment.begin();
      return deployment;
    }

    const bridge = new SharedBridge({ idleMs: SESSION_IDLE_MS, maxSessions: SHARED_MAX_SESSIONS });
    const endpoint = await this.bridgeServer.add(spec.deploymentId, bridge);
    const deployment: SharedDeployment = new SharedDeployment({
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

  /** Egress for a deployment, unless its config says no network or the host lacks the tools. */
  private networkFor(spec: DeploymentSpec, userns: boolean): { resolvConf: string; watchdog: WatchdogNetwork } | null {
    const { slirp4netns, nsenter, ip } = this.hostTools;
    if (spec.isolation.noNetwork || !slirp4netns || !nsenter || !ip) return null;
    // Written by Toolscope into its own folder (never a shared /tmp path a local user could plant).
    const resolvConf = path.join(path.dirname(spec.folder), '.resolv.conf');
    fs.writeFileSync(resolvConf, `nameserver ${SLIRP_DNS}\n`, { mode: 0o644 });
    return {
      resolvConf,
      watchdog: { slirp: slirp4netns, nsenter, ip, userns, routes: egressRoutes(this.options.egress) },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.running].map((deployment) => deployment.stop().catch(() => undefined)));
    await this.bridgeServer.close();
  }
}

export function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The deployment's own folder (and its cwd inside), owned by the uid the sandbox runs as. */
function prepareFolder(folder: string, cwd: string, hostUid: number | null, sandboxGid: number): void {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.mkdirSync(cwd, { recursive: true, mode: 0o700 });
  if (hostUid === null) return;
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    fs.chownSync(dir, hostUid, sandboxGid);
    if (dir === folder || path.dirname(dir) === dir) break;
  }
}
