import type { Database } from '../../db/database';
import { pendingMigrations } from '../../db/migrate';
import type { ServiceHealth } from '../../../contract/health';
import type { RecorderStats } from '../../recording/recorder';
import { BEHIND_AFTER_MS } from './recorderBacklog';

// The checks behind the health routes. Each runs for real on every call (they are cheap) and
// never throws: a failure is an 'unhealthy' answer with a short, non-sensitive message.
export type ServiceCheck = () => Promise<ServiceHealth>;

export function databaseCheck(db: Database): ServiceCheck {
  return async () => {
    const checkedAt = new Date().toISOString();
    try {
      await db.query('select 1');
      return {
        name: 'database',
        status: 'healthy',
        message: `${db.engine} reachable`,
        checkedAt,
        details: { engine: db.engine },
      };
    } catch {
      return {
        name: 'database',
        status: 'unhealthy',
        message: `${db.engine} unreachable`,
        checkedAt,
        details: { engine: db.engine },
      };
    }
  };
}

export function migrationsCheck(db: Database): ServiceCheck {
  return async () => {
    const checkedAt = new Date().toISOString();
    try {
      const pending = await pendingMigrations(db);
      return pending.length === 0
        ? { name: 'migrations', status: 'healthy', message: 'All migrations applied', checkedAt, details: { pending } }
        : {
            name: 'migrations',
            status: 'unhealthy',
            message: `${pending.length} migration(s) not applied`,
            checkedAt,
            details: { pending },
          };
    } catch {
      return {
        name: 'migrations',
        status: 'unhealthy',
        message: 'Migration state unreadable',
        checkedAt,
        details: { pending: [] },
      };
    }
  };
}

export function apiCheck(version: string, startedAt: Date, now: () => Date = () => new Date()): ServiceCheck {
  return () => {
    const at = now();
    return Promise.resolve({
      name: 'api',
      status: 'healthy',
      message: 'Serving requests',
      checkedAt: at.toISOString(),
      details: { version, uptimeSeconds: uptimeSeconds(startedAt, at) },
    });
  };
}

export function uptimeSeconds(startedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000));
}

const RECORDER_NOT_RUNNING = 'Recorder not running';

/**
 * The recorder is healthy while its queue has room: a full queue means calls are being dropped
 * (counted, never blocking agents), which an operator must see.
 */
export function recorderCheck(stats: () => RecorderStats | undefined, queueLimit: number): ServiceCheck {
  return () => {
    const checkedAt = new Date().toISOString();
    const current = stats();
    if (!current)
      return Promise.resolve({
        name: 'recorder',
        status: 'unhealthy',
        message: RECORDER_NOT_RUNNING,
        checkedAt,
        details: {},
      });
    const full = current.queuedRows >= queueLimit;
    const dropped = current.dropped.messages + current.dropped.toolCalls;
    // The last write error's text quotes the database (constraint names, ids of rows): these routes
    // are unauthenticated, so they say only that there was one; the server's log has the text.
    const { lastError, ...counts } = current;
    const behind = behindMessage(current);
    return Promise.resolve({
      name: 'recorder',
      // Behind is still healthy: the proxy serves and the journal holds what waits. A load balancer
      // taking every instance out because the database is away would stop the agents as well.
      status: full ? 'unhealthy' : 'healthy',
      message: full
        ? 'Queue full: new traffic is being dropped'
        : (behind ?? (dropped > 0 ? `Recording; ${dropped} row(s) dropped since start` : 'Recording')),
      checkedAt,
      details: { ...counts, writeFailed: lastError !== null },
    });
  };
}

/** "Behind: …" when writes fail or rows wait longer than BEHIND_AFTER_MS; null when recording keeps up. */
function behindMessage(stats: RecorderStats): string | null {
  const { queuedRows, oldestQueuedMs, journalBytes, writeFailingSince } = stats.behind;
  if (stats.lastError === null && (oldestQueuedMs === null || oldestQueuedMs < BEHIND_AFTER_MS)) return null;
  if (queuedRows === 0 && oldestQueuedMs === null) return null;
  const age = oldestQueuedMs === null ? '' : `, the oldest ${Math.round(oldestQueuedMs / 1000)} s old`;
  const journal = journalBytes === null ? '' : `; journal ${(journalBytes / 1_048_576).toFixed(1)} MiB`;
  const since = writeFailingSince === null ? '' : `; writes failing since ${writeFailingSince}`;
  return `Behind: ${queuedRows} row(s) waiting for the database${age}${journal}${since}`;
}

/**
 * Whether this instance can serve — what GET /api/health answers for a load balancer (issue 32).
 * The proxy answers agents with the database away (keys, servers and quotas it has seen are
 * cached; what it records waits in the journal), so neither a database that is unreachable, nor a
 * migration state it cannot read then, nor a full recorder queue (new rows dropped and counted,
 * agents still answered) takes the instance out: a balancer would pull every instance at once
 * during an outage, and stop the agents too. What does: the API not serving, no recorder (the
 * proxy is not installed), or a migration known to be missing (this code and the schema disagree).
 */
export function canServe(services: readonly ServiceHealth[]): boolean {
  return services.every((service) => {
    if (service.status === 'healthy' || service.name === 'database') return true;
    if (service.name === 'migrations') return ((service.details?.pending as unknown[] | undefined) ?? []).length === 0;
    if (service.name === 'recorder') return service.message !== RECORDER_NOT_RUNNING;
    return false;
  });
}
