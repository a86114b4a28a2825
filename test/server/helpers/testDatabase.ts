import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';

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
  const name = `toolscope_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  await migrate(db);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
