import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { openTestDatabase, engineName, type TestDatabase } from '../helpers/testDatabase';
import { migrate } from '../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../src/server/db/migrations';
import { foldAllPendingTraffic } from '../../../src/server/recording/trafficFold';
import { listPartitions, weekStart } from '../../../src/server/data/retention/partitions';

jest.setTimeout(180_000);

// Issue 33 item 2: messages and tool calls live in weekly partitions; the migration turns an
// existing install's tables into partitions in place; expiry drops whole partitions and keeps
// the rollups; a row with no week of its own still lands (the default partition).

const DAY = 86_400_000;
const ROWS = 20_000;

describe(`time partitions of the raw tables (${engineName})`, () => {
  describe('the migration on an install with data', () => {
    let database: TestDatabase;
    afterAll(() => database.drop());

    it('keeps every row, in place, as the partition of everything before the cutover', async () => {
      // openTestDatabase migrates everything: start again from an empty schema up to 033.
      database = await openTestDatabase();
      const db = database.db;
      await db.query('drop schema public cascade');
      await db.query('create schema public');
      const before = MIGRATIONS.findIndex((m) => m.id === '034_raw_time_partitions');
      await migrate(db, MIGRATIONS.slice(0, before));
      const [user] = await db.query<{ id: string }>(
        "insert into users (email, password_hash, first_name, last_name) values ('p@example.com', 'x', 'P', 'P') returning id",
      );
      const [ws] = await db.query<{ id: string }>(
        "insert into workspaces (name, owner_id) values ('W', $1) returning id",
        [user.id],
      );
      const [server] = await db.query<{ id: string }>(
        "insert into servers (workspace_id, name, url, proxy_key) values ($1, 'S', 'http://127.0.0.1:1/mcp', 'k-partition-test') returning id",
        [ws.id],
      );
      const [session] = await db.query<{ id: string }>(
        `insert into sessions (workspace_id, server_id, transport, status, started_at, last_activity_at)
         values ($1, $2, 'streamable-http', 'ended', now() - interval '20 days', now()) returning id`,
        [ws.id, server.id],
      );
      await db.query(
        `insert into tool_calls (workspace_id, server_id, session_id, jsonrpc_id, tool_name, status, started_at, request_payload)
         select $1, $2, $3, i::text, 'echo', 'ok', now() - (i || ' seconds')::interval, '{"n":' || i || '}'
         from generate_series(1, ${ROWS}) i`,
        [ws.id, server.id, session.id],
      );
      await db.query(
        `insert into messages (workspace_id, session_id, seq, direction, kind, method, payload, size_bytes, created_at)
         select $1, $2, i, 'server_to_client', 'notification', 'notifications/message', jsonb_build_object('n', i), 10, now() - (i || ' seconds')::interval
         from generate_series(1, ${ROWS}) i`,
        [ws.id, session.id],
      );
      const checksum = async () =>
        db.query<{ calls: number; messages: number; payloads: string }>(
          `select (select count(*)::int from tool_calls) as calls, (select count(*)::int from messages) as messages,
                  (select md5(string_agg(request_payload, ',' order by jsonrpc_id)) from tool_calls) as payloads`,
        );
      const [start] = await checksum();

      const began = Date.now();
      expect(await migrate(db)).toEqual(MIGRATIONS.slice(before).map((m) => m.id));
      // How long the migration held the start with this many rows (docs/scaling.md quotes the figure).
      console.log(`migration 034 on ${ROWS} calls + ${ROWS} messages (${engineName}): ${Date.now() - began} ms`);

      expect((await checksum())[0]).toEqual(start);
      const parts = await listPartitions(db, 'tool_calls');
      expect(parts.map((p) => p.name)).toEqual(['tool_calls_before_partitions', 'tool_calls_default']);
      expect(parts[0].upperMs).toBe(weekStart(Date.now()) + 7 * DAY);
      // The recorder's upsert of a call goes on working (its conflict target holds the partition key).
      const [call] = await db.query<{ id: string; started_at: string }>(
        'select id, started_at from tool_calls limit 1',
      );
      await db.query(
        `insert into tool_calls (id, workspace_id, server_id, session_id, tool_name, status, started_at)
         values ($1, $2, $3, $4, 'echo', 'error', $5) on conflict (id, started_at) do update set status = excluded.status`,
        [call.id, ws.id, server.id, session.id, call.started_at],
      );
      const [row] = await db.query<{ n: number }>("select count(*)::int as n from tool_calls where status = 'error'");
      expect(row.n).toBe(1);
    });
  });

  describe('expiry by partition', () => {
    let t: ProxyTestApp;
    let upstream: SdkUpstream;
    const count = async (sql: string) => (await t.database.db.query<{ n: number }>(sql))[0].n;

    beforeAll(async () => {
      t = await startProxyApp();
      upstream = await startStreamableUpstream({ json: true, stateful: true });
      const { proxyUrl } = await t.register(upstream.url, { name: 'fixture' });
      const client = new Client({ name: 'partition-agent', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(proxyUrl);
      await client.connect(transport);
      await client.callTool({ name: 'echo', arguments: { text: 'kept by the week' } });
      await transport.terminateSession();
      await client.close();
      await t.app.recorder.flush();
      await foldAllPendingTraffic(t.database.db);
    });
    afterAll(async () => {
      await (upstream as SdkUpstream | undefined)?.close();
      await (t as ProxyTestApp | undefined)?.close();
    });

    it('has this week and the next two ready at start; a row far outside them lands in the default partition', async () => {
      const names = (await listPartitions(t.database.db, 'tool_calls')).map((p) => p.name);
      const nextMonday = weekStart(Date.now()) + 7 * DAY;
      const week = (ms: number) => `tool_calls_w${new Date(ms).toISOString().slice(0, 10).replace(/-/g, '')}`;
      expect(names).toEqual(expect.arrayContaining([week(nextMonday), week(nextMonday + 7 * DAY)]));
      const [session] = await t.database.db.query<{ id: string; server_id: string }>(
        'select id, server_id from sessions limit 1',
      );
      await t.database.db.query(
        `insert into tool_calls (workspace_id, server_id, session_id, tool_name, status, started_at)
         values ($1, $2, $3, 'future', 'ok', now() + interval '400 days')`,
        [t.account.workspaceId, session.server_id, session.id],
      );
      expect(await count("select count(*)::int as n from tool_calls_default where tool_name = 'future'")).toBe(1);
      await t.database.db.query("delete from tool_calls where tool_name = 'future'");
    });

    it('drops whole partitions once every window has passed them, and keeps the rollups', async () => {
      const rollups = await count('select count(*)::int as n from traffic_minutes');
      expect(rollups).toBeGreaterThan(0);
      expect(await count('select count(*)::int as n from tool_calls')).toBe(1);
      // This week's rows are in the partition that ends next Monday; Starter keeps 7 days.
      const nextMonday = weekStart(Date.now()) + 7 * DAY;
      const early = await t.app.retention.runOnce(new Date(nextMonday + 6 * DAY));
      expect(early.partitionsDropped).toEqual([]);
      const due = await t.app.retention.runOnce(new Date(nextMonday + 7 * DAY + 1));
      expect(due.partitionsDropped).toEqual(
        expect.arrayContaining(['messages_before_partitions', 'tool_calls_before_partitions']),
      );
      expect(due.toolCalls).toBe(0); // gone with the partition, not row by row
      expect(await count('select count(*)::int as n from tool_calls')).toBe(0);
      expect(await count('select count(*)::int as n from messages')).toBe(0);
      expect(await count('select count(*)::int as n from traffic_minutes')).toBe(rollups);
      const names = (await listPartitions(t.database.db, 'tool_calls')).map((p) => p.name);
      expect(names).not.toContain('tool_calls_before_partitions');
      expect(names).toContain('tool_calls_default');
    });
  });
});
