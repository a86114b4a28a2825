import { randomUUID } from 'node:crypto';
import { analyticsContext } from '../../../src/server/modules/analytics/analyticsContext';
import { costliestSessions } from '../../../src/server/modules/analytics/sessionCosts';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

jest.setTimeout(120_000);

// /costs' costliest sessions of a long range come from a walk by input tokens that stops when no
// session left can enter the top 20 (sessionCosts.ts). Whatever the walk reads, the answer must be
// the ranking of every active session by cost: checked against that ranking, computed here, for
// token mixes where the walk settles early, late, or not at all (then every session is read).

describe(`the costliest sessions of a range (${engineName})`, () => {
  let database: TestDatabase;
  let workspaceId: string;
  let serverId: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.db;
    const userId = randomUUID();
    workspaceId = randomUUID();
    serverId = randomUUID();
    await db.query(
      `insert into users (id, email, password_hash, first_name, last_name) values ($1, $2, 'x', 'Rank', 'Test')`,
      [userId, `${userId}@rank.test`],
    );
    await db.query(`insert into workspaces (id, name, owner_id) values ($1, 'Rank', $2)`, [workspaceId, userId]);
    await db.query(
      `insert into servers (id, workspace_id, name, url, proxy_key, status) values ($1, $2, 'ranked', 'http://127.0.0.1:9/', $3, 'online')`,
      [serverId, workspaceId, randomUUID().replace(/-/g, '')],
    );
  });
  afterAll(() => (database as TestDatabase | undefined)?.drop());

  async function sessions(mix: string, count: number): Promise<void> {
    await database.db.query('delete from sessions where workspace_id = $1', [workspaceId]);
    // Over the last 60 days; a session older than the range must not show.
    await database.db.query(
      `insert into sessions (workspace_id, server_id, transport, client_name, status, started_at, last_activity_at, message_count, call_count, error_count,
         argument_tokens, result_tokens, definition_tokens)
       select $1, $2, 'streamable-http', 'agent-' || (g % 3), 'ended', now() - make_interval(secs => g * 5000), now() - make_interval(secs => g * 5000 - 60), 10, 5, 0,
         ${mix}
       from generate_series(1, $3::int) g`,
      [workspaceId, serverId, count],
    );
  }

  /** Checks the ranking; returns whether the walk settled at its first step (200 sessions read). */
  async function expectExactRanking(range: '30d' | '90d'): Promise<boolean> {
    const context = await analyticsContext(database.db, workspaceId, { range });
    const statements: string[] = [];
    const query = context.db.query.bind(context.db);
    const shown = await costliestSessions({
      ...context,
      db: {
        query: (sql: string, params?: unknown[]) => (statements.push(sql), query(sql, params)),
      } as typeof context.db,
    });
    const { prices } = context;
    const every = await database.db.query<{ id: string; cost: number }>(
      `select id::text as id, (((definition_tokens + result_tokens) * $4::float8 + argument_tokens * $5::float8) * $6::float8 / 1000000.0)::float8 as cost
       from sessions where workspace_id = $1 and last_activity_at >= $2::timestamptz and started_at < $3::timestamptz
       order by cost desc, started_at desc limit 20`,
      [
        workspaceId,
        new Date(context.range.fromMs).toISOString(),
        new Date(context.range.toMs).toISOString(),
        prices.inputPerMillion,
        prices.outputPerMillion,
        prices.correctionFactor,
      ],
    );
    expect(shown.map((row) => row.id)).toEqual(every.map((row) => row.id));
    return (
      statements.some((sql) => sql.includes('limit 200')) &&
      !statements.some((sql) => sql.includes('limit 800') || sql.includes('order by cost desc'))
    );
  }

  it.each([
    // Results dominate, arguments small: the walk settles after a few hundred sessions.
    ['results dominate', `(g * 7919) % 400 + 1000, (g * 104729) % 90000, 6000`, true],
    // Arguments (priced as output, 5× input) dominate: input tokens say little, the walk reads on.
    ['arguments dominate', `(g * 7919) % 30000, (g * 13) % 50, 10`, false],
    // Every session alike but a few: ties broken by start, as the full ranking does.
    ['ties', `100 + (g % 7 = 0)::int * 50, 2000, 300`, false],
  ])('%s: the 20 shown are the 20 costliest of every active session', async (_name, mix, settlesEarly) => {
    await sessions(mix, 4000);
    expect(await expectExactRanking('30d')).toBe(settlesEarly);
    expect(await expectExactRanking('90d')).toBe(settlesEarly);
  });
});
