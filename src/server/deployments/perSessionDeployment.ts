import type { PerSessionBridge } from './perSessionBridge';
import type { DeploymentEndpoint, DeploymentObserver, RunningDeployment, RuntimeState } from './runner';

// A deployment in per-session mode: running as soon as its bridge route exists; processes come
// and go with agent sessions (perSessionBridge.ts), so there is no single pid and no restart
// policy — a process that dies ends its session and the agent's client starts a new one.
export class PerSessionDeployment implements RunningDeployment {
  private current: RuntimeState;

  constructor(
    readonly endpoint: DeploymentEndpoint,
    private readonly bridge: PerSessionBridge,
    private readonly observer: DeploymentObserver,
    restarts: number,
    private readonly onStopped: () => void,
  ) {
    this.current = {
      status: 'pending',
      pid: null,
      startedAt: null,
      stoppedAt: null,
      restarts,
      exitCode: null,
      signal: null,
      lastError: null,
      lastStderr: [],
    };
  }

  begin(): void {
    this.update({ status: 'running', startedAt: new Date() });
    this.observer.log('system', 'Ready: each agent session gets a process of its own');
  }

  state(): RuntimeState {
    return { ...this.current };
  }

  memoryBytes(): number | null {
    return null;
  }

  sessionProcesses(): number {
    return this.bridge.processCount;
  }

  async restart(): Promise<void> {
    this.observer.log('system', 'Restart requested: ending every session and its process');
    await this.bridge.close(false);
    this.bridge.reopen();
    this.update({ status: 'running', startedAt: new Date() });
  }

  async stop(): Promise<void> {
    await this.bridge.close();
    this.update({ status: 'stopped', stoppedAt: new Date() });
    this.onStopped();
  }

  private update(changes: Partial<RuntimeState>): void {
    this.current = { ...this.current, ...changes };
    this.observer.state(this.state());
  }
}
