import type { DeploymentRow } from '../data/deployments/mapper';
import type { RuntimeState } from './runner';

// A deployment's status as the store records it: from the runner's live state, or carried over
// from its row (a deployment taken over from another instance, or restored after a restart).

/** What the runner says now; a deployment without a runner state counts as stopped. */
export function statusOf(state: RuntimeState | undefined) {
  return {
    status: state?.status ?? 'stopped',
    pid: state?.pid ?? null,
    startedAt: state?.startedAt ?? null,
    stoppedAt: state?.stoppedAt ?? null,
    restarts: state?.restarts ?? 0,
    exitCode: state?.exitCode ?? null,
    signal: state?.signal ?? null,
    lastError: state?.lastError ?? null,
    lastStderr: state?.lastStderr ?? [],
  };
}

/** What the row last recorded. */
export function statusOfRow(row: DeploymentRow) {
  return {
    status: row.status,
    pid: row.pid,
    startedAt: row.started_at === null ? null : new Date(row.started_at),
    stoppedAt: row.stopped_at === null ? null : new Date(row.stopped_at),
    restarts: row.restarts,
    exitCode: row.exit_code,
    signal: row.signal,
    lastError: row.last_error,
    lastStderr: typeof row.last_stderr === 'string' ? (JSON.parse(row.last_stderr) as string[]) : row.last_stderr,
  };
}
