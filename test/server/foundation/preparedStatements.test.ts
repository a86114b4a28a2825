import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../../../src/server/db/database';
import { binaryArray } from '../../../src/server/db/binaryArrays';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

jest.setTimeout(60_000);

// Database.runPrepared: the recorder's batch statements, prepared once and then only executed
// (PGlite over its wire protocol, PostgreSQL as node-postgres's named statements). What the
// recorder relies on: the rows go in with text, binary and NULL parameters alike; an error keeps
// its SQLSTATE (the recorder tells a refused row from an unavailable database by it) and does not
// spoil the statement for the next run; and on PGlite's single session a prepared statement never
// runs inside a transaction another caller holds open.

const INSERT = 'insert into prepared_probe (id, label, tags, n) values ($1::uuid, $2::text, $3::text[], $4::int)';

async function exercise(db: Database): Promise<void> {
  await db.exec('create table if not exists prepared_probe (id uuid primary key, label text, tags text[], n int)');
  const ids = Array.from({ length: 5 }, () => randomUUID());
  for (const [i, id] of ids.entries())
    await db.runPrepared!(INSERT, [id, `row ${i} ✓`, binaryArray('text', ['a', null, `t${i}`]), i === 2 ? null : i]);
  // Another text beside it gets its own statement.
  await db.runPrepared!('update prepared_probe set label = $2::text where id = $1::uuid', [ids[0], 'changed']);
  const rows = await db.query<{ id: string; label: string; tags: (string | null)[]; n: number | null }>(
    'select id, label, tags, n from prepared_probe where id = any($1::uuid[]) order by n nulls last',
    [ids],
  );
  expect(rows.map((r) => r.label)).toEqual(['changed', 'row 1 ✓', 'row 3 ✓', 'row 4 ✓', 'row 2 ✓']);
  expect(rows.find((r) => r.id === ids[3])?.tags).toEqual(['a', null, 't3']);
  expect(rows.find((r) => r.id === ids[2])?.n).toBeNull();

  // A duplicate key fails with its SQLSTATE; the same statement then runs again.
  await expect(db.runPrepared!(INSERT, [ids[1], 'again', null, 9])).rejects.toMatchObject({ code: '23505' });
  const next = randomUUID();
  await db.runPrepared!(INSERT, [next, 'after the error', null, 10]);
  expect(await db.query('select label from prepared_probe where id = $1', [next])).toEqual([
    { label: 'after the error' },
  ]);
}

const db2Setup = (db: Database) =>
  db.exec('create table if not exists prepared_probe (id uuid primary key, label text, tags text[], n int)');

async function notInsideAnotherTransaction(db: Database): Promise<void> {
  await db.exec('create table if not exists prepared_probe (id uuid primary key, label text, tags text[], n int)');
  const inTransaction = randomUUID();
  const prepared = randomUUID();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const transaction = db
    .transaction(async (tx) => {
      await tx.query('insert into prepared_probe (id, label) values ($1, $2)', [inTransaction, 'rolled back']);
      opened();
      await gate;
      throw new Error('roll back');
    })
    .catch(() => undefined);
  await open;
  const write = db.runPrepared!(INSERT, [prepared, 'kept', null, 1]);
  // Let the prepared write reach the database while the transaction is open, then roll it back.
  await new Promise((resolve) => setTimeout(resolve, 100));
  release();
  await Promise.all([transaction, write]);
  const rows = await db.query<{ id: string }>('select id from prepared_probe where id = any($1::uuid[])', [
    [inTransaction, prepared],
  ]);
  expect(rows.map((r) => r.id)).toEqual([prepared]);
}

describe(`runPrepared (${engineName})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('writes text, binary and NULL parameters, and survives an error with its SQLSTATE', () => exercise(database.db));
  it('never runs inside a transaction another caller holds open', () => notInsideAnotherTransaction(database.db));

  it('runs again when the server lost its prepared statements (DEALLOCATE; a pooler switching connections)', async () => {
    const db = database.db;
    await db.exec('create table if not exists prepared_probe (id uuid primary key, label text, tags text[], n int)');
    const [first, second] = [randomUUID(), randomUUID()];
    await db.runPrepared!(INSERT, [first, 'before', null, 1]);
    // Sequential statements reuse the one idle pooled connection on PostgreSQL; PGlite has one session.
    await db.query('deallocate all');
    await db.runPrepared!(INSERT, [second, 'after', null, 2]);
    const rows = await db.query<{ label: string }>(
      'select label from prepared_probe where id = any($1::uuid[]) order by n',
      [[first, second]],
    );
    expect(rows.map((r) => r.label)).toEqual(['before', 'after']);
  });

  if (engineName === 'postgres') {
    // Through a pooler, instances (and an instance after a restart) share server connections: a
    // statement's name must say which text it is, whatever order each process met its texts in.
    it('names a statement by its text, the same in every process', async () => {
      const other = await openDatabase({ databaseUrl: database.url });
      try {
        await db2Setup(database.db);
        await other.runPrepared!('update prepared_probe set n = n where id = $1::uuid', [randomUUID()]);
        await other.runPrepared!(INSERT, [randomUUID(), 'other process', null, 3]);
        await database.db.runPrepared!(INSERT, [randomUUID(), 'this process', null, 4]);
        const nameIn = async (db: Database) =>
          (
            await db.query<{ name: string }>('select name from pg_prepared_statements where statement = $1', [INSERT])
          )[0]?.name;
        const [mine, theirs] = [await nameIn(database.db), await nameIn(other)];
        expect(mine).toMatch(/^toolscope_[0-9a-f]{40}$/);
        expect(theirs).toBe(mine);
      } finally {
        await other.close();
      }
    });
  }

  if (engineName === 'pglite') {
    // The benches' PGlite on the calling thread runs the same source as the worker.
    it('works the same with PGlite on the calling thread', async () => {
      const db = await openDatabase({ pgliteOnCallingThread: true });
      try {
        await exercise(db);
        await notInsideAnotherTransaction(db);
      } finally {
        await db.close();
      }
    });
  }
});
