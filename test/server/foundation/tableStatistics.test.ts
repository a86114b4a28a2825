import { analyzeGrownTables } from '../../../src/server/db/tableStatistics';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

jest.setTimeout(60_000);

// PGlite has no autovacuum: the app analyzes grown tables itself, so the planner has statistics.
describe(`table statistics (${engineName})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    // Not PostgreSQL's autovacuum: only what the test does may analyze it.
    await database.db.query('create table statistics_probe (id int primary key, word text) with (autovacuum_enabled = false)');
  });
  afterAll(() => database.drop());

  const distinctWords = async () =>
    (await database.db.query<{ n: number | null }>("select n_distinct::float8 as n from pg_stats where tablename = 'statistics_probe' and attname = 'word'"))[0]?.n ?? null;

  it('analyzes a table that grew, once, and again only after it grows by a fifth', async () => {
    await database.db.query("insert into statistics_probe select g, 'w' || (g % 7) from generate_series(1, 20000) g");
    expect(await analyzeGrownTables(database.db)).toContain('statistics_probe');
    // The planner now knows the column: 7 distinct words.
    expect(await distinctWords()).toBe(7);
    expect(await analyzeGrownTables(database.db)).not.toContain('statistics_probe');
    await database.db.query("insert into statistics_probe select g, 'w' || (g % 7) from generate_series(20001, 26000) g");
    expect(await analyzeGrownTables(database.db)).toContain('statistics_probe');
  });
});
