import type {
  DeploymentIsolation,
  DeploymentLimits,
  DeploymentStatus,
  LogStream,
  RestartPolicy,
  SessionMode,
} from '../../contract/deployments';

// What runs deployments. The local process runner (localProcessRunner.ts) is the one
// implementation: it starts programs on this host and bridges their stdio to Streamable HTTP.
// A Kubernetes runner would start a Deployment and a Service per config and hand back the
// Service's URL (docs/deployments.md). Either way the proxy, discovery, health checks and the
// recorder see a tool server at `endpoint` and nothing else.
export interface DeploymentSpec {
  deploymentId: string;
  workspaceId: string;
  configId: string;
  name: string;
  command: string;
  args: string[];
  /** Exactly the environment the program gets (declared values, keys resolved, PATH and HOME). */
  env: Record<string, string>;
  /** The deployment's own writable folder (absolute, on the host). */
  folder: string;
  /** Absolute working folder: the folder itself or a folder inside it. */
  cwd: string;
  restartPolicy: RestartPolicy;
  maxRestarts: number;
  startTimeoutMs: number;
  limits: DeploymentLimits;
  isolation: DeploymentIsolation;
  sessionMode: SessionMode;
  /** Restarts already counted for this deployment (it is restored after Toolscope restarted). */
  restarts: number;
}

export interface RuntimeState {
  status: DeploymentStatus;
  pid: number | null;
  startedAt: Date | null;
  stoppedAt: Date | null;
  restarts: number;
  exitCode: number | null;
  signal: string | null;
  lastError: string | null;
  lastStderr: string[];
}

export interface DeploymentObserver {
  /** Every status change (and pid/exit details) as it happens. */
  state(state: RuntimeState): void;
  /** A line the program wrote to stderr, a stray stdout line, or a note of the supervisor. */
  log(stream: LogStream, text: string): void;
  /** The last n stderr lines (kept in the status of a crashed or failed deployment). */
  recentStderr(n: number): string[];
}

/** Where the proxy reaches a deployment: a Streamable HTTP URL and the headers it must send. */
export interface DeploymentEndpoint {
  url: string;
  headers: Record<string, string>;
}

export interface RunningDeployment {
  readonly endpoint: DeploymentEndpoint;
  state(): RuntimeState;
  memoryBytes(): number | null;
  sessionProcesses(): number;
  /** Stops the program(s) and starts again (the restart count of crashes is kept). */
  restart(): Promise<void>;
  /** The stdio shutdown order: stdin closed, SIGTERM to the group, SIGKILL after the grace period. */
  stop(): Promise<void>;
}

export interface DeploymentRunner {
  readonly name: string;
  /** Begins running; status changes arrive through the observer. */
  start(spec: DeploymentSpec, observer: DeploymentObserver): Promise<RunningDeployment>;
  /** Stops everything this runner runs. */
  close(): Promise<void>;
}
