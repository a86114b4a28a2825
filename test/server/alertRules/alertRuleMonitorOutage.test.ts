import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../../src/server/db/database';
import { AlertRuleMonitor } from '../../../src/server/modules/alertRules/alertRuleMonitor';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

jest.setTimeout(60_000);

// The alert rules' minute timer while the database is away: the rules cannot be read, which is
// logged, and the next run tries again. An unhandled rejection there ended the whole process — an
// instance of the chaos journey died of it while PostgreSQL was terminating its connections.
describe(`alert rule evaluation through a database outage (${engineName})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase();
  });
  afterAll(() => t.drop());

  /** Polls until `done` (the state), within a bound that only a hang reaches. */
  async function until(done: () => boolean): Promise<void> {
    for (let turn = 0; !done() && turn < 1_000; turn++) await new Promise((r) => setTimeout(r, 10));
    expect(done()).toBe(true);
  }

  it('logs each failed run, keeps its timer going, and reads the rules again once the database is back', async () => {
    let away = true;
    let reads = 0;
    // The real test database behind a switch: while "away" every statement fails as PostgreSQL's
    // terminated connections do.
    const db: Queryable = {
      query: <T>(sql: string, params?: unknown[]) => {
        if (away)
          return Promise.reject(
            Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
          );
        reads++;
        return t.db.query<T>(sql, params);
      },
    };
    const logged: string[] = [];
    const app = { db, log: { error: (_fields: unknown, message: string) => logged.push(message) } };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const monitor = new AlertRuleMonitor(app as unknown as FastifyInstance, Date.now, 20);
    try {
      monitor.start();
      await until(() => logged.length >= 3);
      expect(new Set(logged)).toEqual(new Set(['alert rules could not be evaluated: tried again next minute']));

      away = false;
      await until(() => reads > 0);
      await monitor.stop();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await monitor.stop();
    }
  });
});
