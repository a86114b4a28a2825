import { vacuumTables } from '../../../src/server/db/tableVacuum';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

jest.setTimeout(60_000);

// PGlite has no autovacuum: the app vacuums every table itself (tableVacuum.ts), so the space of
// rewritten rows is reused and old rows are frozen before transaction ids could wrap around.
describe(`table vacuum (${engineName})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    // Not PostgreSQL's autovacuum: only what the test does may vacuum it.
    await database.db.query('create table vacuum_probe (id int primary key, body text) with (autovacuum_enabled = false)');
    await database.db.query("insert into vacuum_probe select g, repeat('x', 500) from generate_series(1, 2000) g");
  });
  afterAll(() => database.drop());

  const pages = async () => (await database.db.query<{ pages: number }>("select (pg_relation_size('vacuum_probe') / current_setting('block_size')::int)::int as pages"))[0].pages;
  const frozenAge = async () => (await database.db.query<{ age: number }>("select age(relfrozenxid)::int as age from pg_class where relname = 'vacuum_probe'"))[0].age;
  const rewriteAll = () => database.db.query("update vacuum_probe set body = repeat('y', 500)");

  it('lets rewritten rows reuse the space of their old versions', async () => {
    await rewriteAll();
    const afterOneRewrite = await pages();
    expect(await vacuumTables(database.db)).toContain('vacuum_probe');
    // The old versions' space is free again: a second rewrite of every row fits in the same pages.
    await rewriteAll();
    expect(await pages()).toBeLessThanOrEqual(afterOneRewrite);
  });

  it('freezes old rows, so transaction ids cannot wrap around', async () => {
    // Transactions that write, each consuming an id, age the table's oldest unfrozen row.
    for (let i = 0; i < 20; i++) await database.db.query('insert into vacuum_probe values ($1, $2)', [10_000 + i, 'z']);
    const before = await frozenAge();
    expect(before).toBeGreaterThanOrEqual(20);
    await vacuumTables(database.db);
    expect(await frozenAge()).toBeLessThan(before);
  });
});
