import type { Database } from '../../../src/server/db/database';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

// Every connection of the pool runs with JIT compilation off (database.ts): with it, a replay or an
// export at a few hundred thousand stored calls spent seconds compiling (docs/scaling.md). PGlite
// is built without a JIT provider (its setting reads 'on' and compiles nothing): the test proves
// PostgreSQL, which CI runs this project's server tests on (TEST_DATABASE_URL).
const onPostgres = engineName === 'postgres';
if (!onPostgres)
  console.log('postgresConnectionSettings: skipped on PGlite (no JIT there); it runs with TEST_DATABASE_URL');

describe(`connection settings (${engineName})`, () => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await openTestDatabase();
    db = testDb.db;
  });
  afterAll(() => testDb.drop());

  (onPostgres ? it : it.skip)(
    'has JIT off on every pooled connection, including ones opened under concurrent load',
    async () => {
      // Held open together, the queries take several connections of the pool at once.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          db.query<{ jit: string; pid: number }>(
            'select current_setting($1) as jit, pg_backend_pid() as pid, pg_sleep(0.05)',
            ['jit'],
          ),
        ),
      );
      const settings = answers.map(([row]) => row.jit);
      expect(settings).toEqual(Array(6).fill('off'));
      expect(new Set(answers.map(([row]) => row.pid)).size).toBeGreaterThan(1);
    },
  );
});
