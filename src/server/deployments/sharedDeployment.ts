import { RESTART_BACKOFF } from '../../contract/deployments';
import type { ExitInfo, ProgramProcess } from './processLauncher';
import { stopProgram } from './programStopper';
import type { DeploymentEndpoint, DeploymentObserver, DeploymentSpec, RunningDeployment, RuntimeState } from './runner';
import type { SharedBridge } from './sharedBridge';
import { StdioChannel } from './stdioChannel';

// One supervised process shared by every agent session: start, initialize (running), and on an
// exit the restart policy with exponential backoff — 1 s doubling to 60 s, the streak forgotten
// once a run lasted 60 s; more than maxRestarts restarts in one streak → failed, with the last
// stderr lines kept in the status.
const STDERR_TAIL = 20;

export interface SharedDeploymentParts {
  spec: DeploymentSpec;
  observer: DeploymentObserver;
  bridge: SharedBridge;
  endpoint: DeploymentEndpoint;
  launch(): ProgramProcess;
  stopGraceMs: number;
  version: string;
  /** Called once stop() finished (the runner unregisters the bridge route). */
  onStopped(): void;
}

export class SharedDeployment implements RunningDeployment {
  private current: RuntimeState;
  private program: ProgramProcess | null = null;
  private backoff: NodeJS.Timeout | undefined;
  /** Consecutive restarts not separated by a run of RESTART_BACKOFF.resetAfterUptimeMs. */
  private streak = 0;
  /** Restarts waiting for their program to serve (or fail to). */
  private readonly startWaiters: (() => void)[] = [];
  private stopping = false;
  private wakeFromBackoff: (() => void) | undefined;
  private runLoop: Promise<void> = Promise.resolve();

  constructor(private readonly parts: SharedDeploymentParts) {
    this.current = {
      status: 'pending',
      pid: null,
      startedAt: null,
      stoppedAt: null,
      restarts: parts.spec.restarts,
      exitCode: null,
      signal: null,
      lastError: null,
      lastStderr: [],
    };
  }

  get endpoint(): DeploymentEndpoint {
    return this.parts.endpoint;
  }

  state(): RuntimeState {
    return { ...this.current };
  }

  memoryBytes(): number | null {
    return this.program?.memoryBytes() ?? null;
  }

  sessionProcesses(): number {
    return 0;
  }

  begin(): void {
    this.runLoop = this.run();
  }

  /**
   * Resolves once the new program serves agents (or failed to start): a restart answered while
   * the program still starts would send the caller's next call into a -32010.
   */
  async restart(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.backoff);
    this.wakeFromBackoff?.();
    await this.stopCurrent('The deployment is restarting');
    await this.runLoop;
    this.stopping = false;
    this.streak = 0;
    this.parts.observer.log('system', 'Restart requested');
    const started = new Promise<void>((resolve) => this.startWaiters.push(resolve));
    this.runLoop = this.run();
    await started;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.backoff);
    this.wakeFromBackoff?.();
    await this.stopCurrent('The deployment stopped');
    await this.runLoop;
    await this.parts.bridge.close();
    this.update({ status: 'stopped', pid: null, stoppedAt: new Date() });
    this.parts.onStopped();
  }

  private async stopCurrent(reason: string): Promise<void> {
    const program = this.program;
    if (!program) return;
    this.parts.bridge.detach(reason);
    this.parts.observer.log(
      'system',
      'Stopping: stdin closed, then SIGTERM to the process group, then SIGKILL after the grace period',
    );
    await stopProgram(program, this.parts.stopGraceMs);
  }

  private update(changes: Partial<RuntimeState>): void {
    this.current = { ...this.current, ...changes };
    this.parts.observer.state(this.state());
    // Running, or an end of this attempt (restarting, crashed, failed, stopped): a start settled.
    if (changes.status && changes.status !== 'starting') for (const resolve of this.startWaiters.splice(0)) resolve();
  }

  /** Runs the program, and again per the restart policy, until stopped or settled. */
  private async run(): Promise<void> {
    while (!this.stopping) {
      const { exit, runningSince } = await this.runOnce();
      const delay = this.afterExit(exit, runningSince);
      if (delay === null) return;
      await new Promise<void>((resolve) => {
        this.wakeFromBackoff = resolve;
        this.backoff = setTimeout(resolve, delay);
      });
      this.wakeFromBackoff = undefined;
    }
  }

  private async runOnce(): Promise<{ exit: ExitInfo; runningSince: number | null }> {
    const { spec, observer, bridge } = this.parts;
    this.update({ status: 'starting', pid: null, stoppedAt: null });
    let program: ProgramProcess;
    try {
      program = this.parts.launch();
    } catch (error) {
      return {
        exit: { code: null, signal: null, error: error instanceof Error ? error.message : String(error) },
        runningSince: null,
      };
    }
    this.program = program;
    const channel = new StdioChannel(program);
    channel.onStderr = (line) => observer.log('stderr', line);
    channel.onStray = (line) => observer.log('stdout', `Not JSON-RPC, not passed to agents: ${line}`);
    let runningSince: number | null = null;
    try {
      const pid = await program.started;
      this.update({ pid });
      observer.log('system', `Started ${spec.command} (pid ${pid})`);
      await bridge.attach(channel, spec.startTimeoutMs, this.parts.version);
      if (!this.stopping) {
        runningSince = Date.now();
        this.update({ status: 'running', startedAt: new Date(runningSince), lastError: null });
        observer.log('system', 'Initialized; serving agents');
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (program.running && !this.stopping) {
        observer.log('system', `${message}; stopping it`);
        this.update({ lastError: message });
        await stopProgram(program, this.parts.stopGraceMs);
      }
    }
    const exit = await program.exited;
    this.program = null;
    bridge.detach(this.stopping ? 'The deployment stopped' : 'The program exited');
    return { exit, runningSince };
  }

  /** Records how the program ended; the backoff before the next start, or null when it stays down. */
  private afterExit(exit: ExitInfo, runningSince: number | null): number | null {
    const { spec, observer } = this.parts;
    const how = exit.error ?? (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`);
    observer.log('system', `The program ${how}`);
    const exitDetails = { pid: null, exitCode: exit.code, signal: exit.signal, stoppedAt: new Date() };
    if (this.stopping) {
      this.update(exitDetails);
      return null;
    }
    if (runningSince !== null && Date.now() - runningSince >= RESTART_BACKOFF.resetAfterUptimeMs) this.streak = 0;
    const clean = exit.code === 0 && !exit.signal && !exit.error;
    const restart = spec.restartPolicy === 'always' || (spec.restartPolicy === 'on-failure' && !clean);
    const lastStderr = this.parts.observer.recentStderr(STDERR_TAIL);
    const lastError =
      this.current.lastError && runningSince === null ? this.current.lastError : (exit.error ?? `The program ${how}`);
    if (!restart) {
      this.update({
        ...exitDetails,
        status: clean ? 'stopped' : 'crashed',
        lastError: clean ? null : lastError,
        lastStderr,
      });
      return null;
    }
    if (this.streak >= spec.maxRestarts) {
      this.update({
        ...exitDetails,
        status: 'failed',
        lastError: `Gave up after ${this.streak} restart${this.streak === 1 ? '' : 's'} in a row: ${lastError}`,
        lastStderr,
      });
      return null;
    }
    const delay = Math.min(RESTART_BACKOFF.maxMs, RESTART_BACKOFF.initialMs * 2 ** this.streak);
    this.streak += 1;
    this.update({ ...exitDetails, status: 'restarting', restarts: this.current.restarts + 1, lastError, lastStderr });
    observer.log(
      'system',
      `Restarting in ${delay / 1000} s (restart ${this.streak} of at most ${spec.maxRestarts} in a row)`,
    );
    return delay;
  }
}
