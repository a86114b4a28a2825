import type { Database } from '../../db/database';
import { pendingMigrations } from '../../db/migrate';
import type { ServiceHealth } from '../../../contract/health';

// The checks behind the health routes. Each runs for real on every call (they are cheap) and
// never throws: a failure is an 'unhealthy' answer with a short, non-sensitive message.
export type ServiceCheck = () => Promise<ServiceHealth>;

export function databaseCheck(db: Database): ServiceCheck {
  return async () => {
    const checkedAt = new Date().toISOString();
    try {
      await db.query('select 1');
      return { name: 'database', status: 'healthy', message: `${db.engine} reachable`, checkedAt, details: { engine: db.engine } };
    } catch {
      return { name: 'database', status: 'unhealthy', message: `${db.engine} unreachable`, checkedAt, details: { engine: db.engine } };
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
        : { name: 'migrations', status: 'unhealthy', message: `${pending.length} migration(s) not applied`, checkedAt, details: { pending } };
    } catch {
      return { name: 'migrations', status: 'unhealthy', message: 'Migration state unreadable', checkedAt, details: { pending: [] } };
    }
  };
}

export function apiCheck(version: string, startedAt: Date, now: () => Date = () => new Date()): ServiceCheck {
  return async () => {
    const at = now();
    return {
      name: 'api',
      status: 'healthy',
      message: 'Serving requests',
      checkedAt: at.toISOString(),
      details: { version, uptimeSeconds: uptimeSeconds(startedAt, at) },
    };
  };
}

export function uptimeSeconds(startedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000));
}
