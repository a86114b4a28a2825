import { TableMaintenance } from '../../../src/server/db/tableMaintenance';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

jest.setTimeout(60_000);

// PGlite has no autovacuum: the app vacuums, freezes and analyzes itself (tableMaintenance.ts), so
// the planner has statistics, rewritten rows reuse their old versions' space, and no row is left
// unfrozen until transaction ids wrap around.
describe(`table maintenance (${engineName})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    // Not PostgreSQL's autovacuum: only what the test does may vacuum or analyze them.
    await database.db.query(
      'create table statistics_probe (id int primary key, word text) with (autovacuum_enabled = false)',
    );
    await database.db.query(
      'create table vacuum_probe (id int primary key, body text) with (autovacuum_enabled = false)',
    );
    await database.db.query("insert into vacuum_probe select g, repeat('x', 500) from generate_series(1, 2000) g");
  });
  afterAll(() => database.drop());

  const distinctWords = async () =>
    (
      await database.db.query<{ n: number | null }>(
        "select n_distinct::float8 as n from pg_stats where tablename = 'statistics_probe' and attname = 'word'",
      )
    )[0]?.n ?? null;
  const pages = async () =>
    (
      await database.db.query<{ pages: number }>(
        "select (pg_relation_size('vacuum_probe') / current_setting('block_size')::int)::int as pages",
      )
    )[0].pages;
  const tableAge = async () =>
    (
      await database.db.query<{ age: number }>(
        "select age(relfrozenxid)::int as age from pg_class where relname = 'vacuum_probe'",
      )
    )[0].age;
  const databaseAge = async () =>
    (
      await database.db.query<{ age: number }>(
        'select age(datfrozenxid)::int as age from pg_database where datname = current_database()',
      )
    )[0].age;
  const rewriteAll = () => database.db.query("update vacuum_probe set body = repeat('y', 500)");

  it('analyzes a table that grew, once, and again only after it grows by a fifth, vacuums in between', async () => {
    const maintenance = new TableMaintenance(database.db);
    await database.db.query("insert into statistics_probe select g, 'w' || (g % 7) from generate_series(1, 20000) g");
    const first = await maintenance.run();
    expect(first.failed).toEqual([]);
    expect(first.analyzed).toContain('statistics_probe');
    expect(first.vacuumed).toEqual(
      expect.arrayContaining(['statistics_probe', 'vacuum_probe', 'pg_class', 'pg_statistic']),
    );
    // The planner now knows the column: 7 distinct words.
    expect(await distinctWords()).toBe(7);
    expect((await maintenance.run()).analyzed).not.toContain('statistics_probe');
    // A tenth more is not enough (the vacuum of each run must not reset what "grown" is measured from)…
    await database.db.query(
      "insert into statistics_probe select g, 'w' || (g % 7) from generate_series(20001, 22000) g",
    );
    expect((await maintenance.run()).analyzed).not.toContain('statistics_probe');
    // …a fifth more since the last ANALYZE is.
    await database.db.query(
      "insert into statistics_probe select g, 'w' || (g % 7) from generate_series(22001, 26000) g",
    );
    expect((await maintenance.run()).analyzed).toContain('statistics_probe');
  });

  it('analyzes a table that grows slowly, once its growth since first seen adds up', async () => {
    await database.db.query(
      'create table slow_probe (id int primary key, body text) with (autovacuum_enabled = false)',
    );
    const grow = (from: number, rows: number) =>
      database.db.query("insert into slow_probe select g, repeat('s', 500) from generate_series($1::int, $2::int) g", [
        from,
        from + rows - 1,
      ]);
    const maintenance = new TableMaintenance(database.db);
    await grow(1, 30); // ~2 pages: too small to analyze
    expect((await maintenance.run()).analyzed).not.toContain('slow_probe');
    await grow(31, 90); // ~8 pages in all, each run's VACUUM recording the size
    expect((await maintenance.run()).analyzed).not.toContain('slow_probe');
    await grow(121, 90); // ~14 pages: grown past a fifth and 8 pages since first seen, though not since the last VACUUM
    expect((await maintenance.run()).analyzed).toContain('slow_probe');
  });

  it('lets rewritten rows reuse the space of their old versions', async () => {
    const maintenance = new TableMaintenance(database.db);
    await rewriteAll();
    const afterOneRewrite = await pages();
    expect((await maintenance.run()).vacuumed).toContain('vacuum_probe');
    // The old versions' space is free again: a second rewrite of every row fits in the same pages.
    await rewriteAll();
    expect(await pages()).toBeLessThanOrEqual(afterOneRewrite);
  });

  it('freezes old rows in every table, catalogs included, so transaction ids cannot wrap around', async () => {
    // Transactions that write, each consuming an id, age the oldest unfrozen rows.
    for (let i = 0; i < 20; i++) await database.db.query('insert into vacuum_probe values ($1, $2)', [10_000 + i, 'z']);
    const [tableBefore, databaseBefore] = [await tableAge(), await databaseAge()];
    expect(tableBefore).toBeGreaterThanOrEqual(20);
    await new TableMaintenance(database.db).run();
    expect(await tableAge()).toBeLessThan(tableBefore);
    // The database's horizon is the oldest of all its tables': it moves only when the catalogs are
    // frozen too. Asserted on PGlite, the engine this job runs on: on a PostgreSQL server the shared
    // catalogs' horizon also waits for transactions of other databases (the other test workers').
    if (engineName === 'pglite') expect(await databaseAge()).toBeLessThan(databaseBefore);
  });

  it('starts no table after stop(), and stop() waits for the run under way', async () => {
    const maintenance = new TableMaintenance(database.db);
    const run = maintenance.run();
    await maintenance.stop();
    expect(await run).toEqual({ vacuumed: [], analyzed: [], failed: [] });
    expect(await maintenance.run()).toEqual({ vacuumed: [], analyzed: [], failed: [] });
  });
});
