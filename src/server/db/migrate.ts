import type { Database } from './database';
import { MIGRATIONS, type Migration } from './migrations';

// Applies each migration once, in order, inside a transaction, and records it. An advisory lock
// keeps two instances starting together on one PostgreSQL from racing.
const LOCK_ID = 7_373_001;

export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // The lock comes first, so two instances starting on an empty database do not race to
    // create the bookkeeping table either.
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.query(`create table if not exists schema_migrations (
      id text primary key,
      applied_at timestamptz not null default now()
    )`);
    const done = new Set((await tx.query<{ id: string }>('select id from schema_migrations')).map((r) => r.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('insert into schema_migrations (id) values ($1)', [migration.id]);
      applied.push(migration.id);
    }
  });
  return applied;
}

/** Ids of migrations not yet applied (health reports "migrations current"). */
export async function pendingMigrations(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from schema_migrations');
  const done = new Set(rows.map((r) => r.id));
  return migrations.filter((m) => !done.has(m.id)).map((m) => m.id);
}

/** Migrations are ours (no dollar quoting, no semicolons in strings), so a split on ; is safe. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
