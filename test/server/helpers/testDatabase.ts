import { openDatabase, type Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { createScratchDatabase } from './scratchDatabase';

// Each test file gets its own empty, migrated database: PGlite in memory by default, or a fresh
// PostgreSQL database (created and dropped here) when TEST_DATABASE_URL is set. `engineName`
// lets suites print which engine they proved.
export const engineName = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDatabase {
  db: Database;
  /** The connection URL of the PostgreSQL test database (undefined for PGlite). */
  url?: string;
  drop(): Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const db = await openDatabase({});
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const scratch = await createScratchDatabase(base, 'toolscope_t');
  const db = await openDatabase({ databaseUrl: scratch.url });
  await migrate(db);
  return {
    db,
    url: scratch.url,
    drop: async () => {
      await db.close();
      await scratch.drop();
    },
  };
}
