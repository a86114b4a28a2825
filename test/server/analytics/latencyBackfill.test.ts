import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../src/server/db/migrations';
import { LatencySketch } from '../../../src/server/recording/latencySketch';
import { createScratchDatabase } from '../helpers/scratchDatabase';
import { engineName } from '../helpers/testDatabase';

jest.setTimeout(120_000);

// Migration 021 turns the traffic rollups' jsonb sketches into arrays and adds the sketch-only
// rollup (latency_*), filled from the traffic rollups a database already holds: a workspace
// upgraded with months of traffic keeps its percentiles. The rows are written as the recorder
// wrote them before 021 (jsonb sketches per client), then the migration runs: each row's arrays
// must hold its sketch, and each server's and tool's sketch must be the merge of its rows'.

describe(`migration 021 backfills the sketch-only rollup from the traffic rollups (${engineName})`, () => {
  let db: Database;
  let drop: () => Promise<void> = async () => {};
  let workspaceId = '';
  let serverId = '';

  beforeAll(async () => {
    const base = process.env.TEST_DATABASE_URL;
    if (base) {
      const scratch = await createScratchDatabase(base, 'toolscope_t');
      db = await openDatabase({ databaseUrl: scratch.url });
      drop = async () => {
        await db.close();
        await scratch.drop();
      };
    } else {
      db = await openDatabase({});
      drop = () => db.close();
    }
  });
  afterAll(() => drop());

  it('per server (tool_name null) and per tool, every grain, equal to the merged jsonb sketches', async () => {
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.id < '021'),
    );
    const workspace = randomUUID();
    const server = randomUUID();
    const bucket = '2026-11-01T10:00:00.000Z';
    const expected = { all: new LatencySketch(), read: new LatencySketch(), write: new LatencySketch() };
    const rows: [string, string, LatencySketch][] = [];
    let duration = 0;
    for (const tool of ['read', 'write'] as const) {
      for (const client of ['agent-a', 'agent-b']) {
        const sketch = new LatencySketch();
        for (let i = 0; i < 50; i++) {
          duration = i === 0 ? 0 : (duration * 7 + 13) % 997; // a 0 ms call: the zero bin travels too
          sketch.add(duration);
          expected[tool].add(duration);
          expected.all.add(duration);
        }
        rows.push([tool, client, sketch]);
      }
    }
    for (const table of ['traffic_minutes', 'traffic_hours', 'traffic_days']) {
      for (const [tool, client, sketch] of rows) {
        await db.query(
          `insert into ${table} (workspace_id, bucket, server_id, tool_name, client_name, calls, latency) values ($1, $2, $3, $4, $5, 50, $6::jsonb)`,
          [workspace, bucket, server, tool, client, JSON.stringify(sketch.toBins())],
        );
      }
      // What belongs to no call (sessions, definitions) has no sketch and gets no sketch row.
      await db.query(
        `insert into ${table} (workspace_id, bucket, server_id, tool_name, client_name, sessions) values ($1, $2, $3, '', 'agent-a', 3)`,
        [workspace, bucket, server],
      );
    }

    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.id < '022'),
    );

    // The traffic rows' own sketches, now as arrays, bin for bin.
    for (const table of ['traffic_minutes', 'traffic_hours', 'traffic_days']) {
      const stored = await db.query<{
        tool_name: string;
        client_name: string;
        latency_zeros: number;
        latency_bins: number[];
        latency_counts: number[];
      }>(
        `select tool_name, client_name, latency_zeros, latency_bins, latency_counts from ${table} where workspace_id = $1 and tool_name <> '' order by tool_name, client_name`,
        [workspace],
      );
      expect(stored).toHaveLength(rows.length);
      stored.forEach((row, i) => {
        const { zeros, bins, counts } = rows[i][2].toArrays();
        expect([row.tool_name, row.client_name]).toEqual([rows[i][0], rows[i][1]]);
        expect({ zeros: row.latency_zeros, bins: row.latency_bins, counts: row.latency_counts }).toEqual({
          zeros,
          bins,
          counts,
        });
      });
    }
    // 2026-11-01 was a Sunday: its week began on Monday 2026-10-26.
    const week = await db.query<{ bucket: Date | string }>(
      `select bucket from latency_weeks where workspace_id = $1 limit 1`,
      [workspace],
    );
    expect(new Date(week[0].bucket).toISOString()).toBe('2026-10-26T00:00:00.000Z');
    for (const table of ['latency_minutes', 'latency_hours', 'latency_days', 'latency_weeks']) {
      const stored = await db.query<{ tool_name: string | null; zeros: number; bins: number[]; counts: number[] }>(
        `select tool_name, zeros, bins, counts from ${table} where workspace_id = $1 and server_id = $2 order by tool_name nulls first`,
        [workspace, server],
      );
      expect(stored.map((row) => row.tool_name)).toEqual([null, 'read', 'write']);
      for (const row of stored) {
        const sketch = new LatencySketch();
        sketch.addArrays(row.zeros, row.bins, row.counts);
        const want = expected[row.tool_name === null ? 'all' : (row.tool_name as 'read' | 'write')];
        expect(sketch.count).toBe(want.count);
        expect(sketch.toBins()).toEqual(want.toBins());
        expect([...row.bins].sort((a, b) => a - b)).toEqual(row.bins);
      }
    }
    workspaceId = workspace;
    serverId = server;
  });

  // Migration 022 adds the sums beside the sketches, filled from the same traffic rows: per tool
  // (tool '' too: the sessions) and per server, every grain, the weeks from the days.
  it('migration 022 fills the sums of the per-server and per-tool rows', async () => {
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.id < '023'),
    );
    for (const table of ['latency_minutes', 'latency_hours', 'latency_days', 'latency_weeks']) {
      const stored = await db.query<{ tool_name: string | null; calls: number; sessions: number; zeros: number }>(
        `select tool_name, calls, sessions, zeros from ${table} where workspace_id = $1 and server_id = $2 order by tool_name nulls first`,
        [workspaceId, serverId],
      );
      expect(stored).toEqual([
        { tool_name: null, calls: 200, sessions: 3, zeros: 2 * 2 },
        { tool_name: '', calls: 0, sessions: 3, zeros: 0 },
        { tool_name: 'read', calls: 100, sessions: 0, zeros: 2 },
        { tool_name: 'write', calls: 100, sessions: 0, zeros: 2 },
      ]);
    }
    expect((await db.query<{ n: number }>('select count(*)::int as n from traffic_pending'))[0].n).toBe(0);
  });

  // Migration 023 adds the workspace's row (server_id and tool_name null) to every grain: the sum
  // of its server rows, sketch and sums, filled from the rows already stored. A second server's
  // rows are stored first, so the row merges two servers.
  it('migration 023 fills the workspace rows from the server rows', async () => {
    const other = randomUUID();
    const otherSketch = new LatencySketch();
    for (let i = 0; i < 40; i++) otherSketch.add(i === 0 ? 0 : 5 + ((i * 37) % 300));
    const { zeros, bins, counts } = otherSketch.toArrays();
    const tables = ['latency_minutes', 'latency_hours', 'latency_days', 'latency_weeks'];
    for (const table of tables) {
      const bucket = (
        await db.query<{ bucket: Date | string }>(`select bucket from ${table} where workspace_id = $1 limit 1`, [
          workspaceId,
        ])
      )[0].bucket;
      await db.query(
        `insert into ${table} (workspace_id, bucket, server_id, tool_name, calls, sessions, tool_errors, result_tokens, duration_max_ms, zeros, bins, counts)
         values ($1, $2, $3, null, 40, 2, 1, 900, 4000, $4, $5::int[], $6::int[])`,
        [workspaceId, bucket, other, zeros, bins, counts],
      );
    }
    await migrate(db);
    const want = new LatencySketch();
    want.merge(otherSketch);
    for (const row of await db.query<{ zeros: number; bins: number[]; counts: number[] }>(
      `select zeros, bins, counts from latency_hours where workspace_id = $1 and server_id = $2 and tool_name is null`,
      [workspaceId, serverId],
    ))
      want.addArrays(row.zeros, row.bins, row.counts);
    for (const table of tables) {
      const stored = await db.query<{
        calls: number;
        sessions: number;
        tool_errors: number;
        result_tokens: number;
        duration_max_ms: number;
        zeros: number;
        bins: number[];
        counts: number[];
      }>(
        `select calls, sessions, tool_errors, result_tokens::float8 as result_tokens, duration_max_ms, zeros, bins, counts from ${table} where workspace_id = $1 and server_id is null`,
        [workspaceId],
      );
      expect(stored).toHaveLength(1);
      const [row] = stored;
      expect({
        calls: row.calls,
        sessions: row.sessions,
        tool_errors: row.tool_errors,
        result_tokens: row.result_tokens,
        duration_max_ms: row.duration_max_ms,
      }).toEqual({ calls: 240, sessions: 5, tool_errors: 1, result_tokens: 900, duration_max_ms: 4000 });
      const sketch = new LatencySketch();
      sketch.addArrays(row.zeros, row.bins, row.counts);
      expect(sketch.count).toBe(240);
      expect(sketch.toBins()).toEqual(want.toBins());
      expect([...row.bins].sort((a, b) => a - b)).toEqual(row.bins);
    }
  });
});
