import type {
  AnalyticsOverviewResult,
  PerformanceSeriesResult,
  PerformanceSummaryResult,
} from '../../../src/contract/analytics';
import { writeBatch } from '../../../src/server/recording/batchWriter';
import { LatencySketch } from '../../../src/server/recording/latencySketch';
import type { QueuedSession, QueuedToolCall } from '../../../src/server/recording/rows';
import { foldAllPendingTraffic } from '../../../src/server/recording/trafficFold';
import { TrafficRollup } from '../../../src/server/recording/trafficRollup';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';

jest.setTimeout(420_000);

// Percentiles of a range come from DDSketches merged across minutes, hours, days, tools and
// servers. Eight hours of calls crossing midnight (UTC) are rolled up by the recorder's own
// rollup and written by its own batch statement, in many writes that hit the same rows (so the
// database merges sketches on conflict); then p50/p90/p95/p99 of ragged and whole ranges, per
// server, per tool and overall, are checked against the exact values of the same durations.

const Q = [
  [0.5, 'p50Ms'],
  [0.9, 'p90Ms'],
  [0.95, 'p95Ms'],
  [0.99, 'p99Ms'],
] as const;

function exactQuantile(sorted: number[], q: number): number {
  // The nearest rank (docs/analytics.md "Quantile"): the value of 1-based rank ⌈q·n⌉.
  return sorted[Math.max(0, Math.ceil(q * sorted.length - 1e-9) - 1)];
}

/** A deterministic pseudo-random sequence (the test must fail or pass the same way every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe(`percentiles from merged sketches over several hours (${engineName})`, () => {
  let t: TestApp;
  let account: TestAccount;
  const servers: string[] = [];
  const calls: { server: string; tool: string; client: string; endedMs: number; duration: number }[] = [];
  const CLIENTS = ['agent-a', 'agent-b'];
  const midnight = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const start = midnight - 4 * 3_600_000 - 13 * 60_000; // 19:47 yesterday (UTC) …
  const end = midnight + 4 * 3_600_000 + 9 * 60_000; // … 04:09 today

  beforeAll(async () => {
    t = await buildTestApp({ healthIntervalMs: 3_600_000 });
    account = await registerAccount(t.app);
    for (const name of ['fast', 'slow']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${account.workspaceId}/servers`,
        headers: bearer(account.accessToken),
        payload: { url: `http://127.0.0.1:9/${name}`, name },
      });
      servers.push(res.json().id);
    }
    const next = random(42);
    const rollup = new TrafficRollup();
    // A session per server and client: a call's client is its session's (the client filter reads the full-key rows).
    const sessionId = (server: string, client: string) => `session-${server}-${client}`;
    for (const server of servers) {
      for (const client of CLIENTS) {
        rollup.noteSession({
          row: {
            id: sessionId(server, client),
            workspace_id: account.workspaceId,
            server_id: server,
            client_name: client,
            started_at: new Date(start - 60_000).toISOString(),
            argument_tokens: 0,
            result_tokens: 0,
            definition_tokens: 0,
          },
          announced: true,
          endAnnounced: false,
        } as unknown as QueuedSession);
      }
    }
    const total = 24_000;
    for (let i = 0; i < total; i++) {
      const server = servers[i % 2];
      const tool = ['read', 'write', 'search'][Math.floor(next() * 3)];
      // Log-normal-ish durations: most calls fast, a long tail; the slow server ten times slower.
      const duration = Math.round(Math.exp(next() * 4 + next() * 3) * (i % 2 === 0 ? 1 : 10));
      const endedMs = start + Math.floor((i / total) * (end - start));
      const client = CLIENTS[Math.floor(next() * 2)];
      calls.push({ server, tool, client, endedMs, duration });
      const endedAt = new Date(endedMs).toISOString();
      rollup.add({
        id: `call-${i}`,
        workspace_id: account.workspaceId,
        server_id: server,
        server_name: null,
        session_id: sessionId(server, client),
        jsonrpc_id: String(i),
        tool_name: tool,
        arguments: { i },
        result: { content: [{ type: 'text', text: 'ok' }] },
        error_message: null,
        status: 'ok',
        started_at: new Date(endedMs - duration).toISOString(),
        ended_at: endedAt,
        duration_ms: duration,
        request_bytes: 20,
        response_bytes: 40,
        tokens_estimate: 15,
        meta: null,
        traceparent: null,
        request_seq: 1,
        request_payload: '',
        request_truncated: false,
        response_seq: 2,
        response_kind: 'response',
        response_payload: '',
        response_truncated: false,
      } as QueuedToolCall);
      // A write every 500 calls, as the recorder's batches: the same minute and hour rows again and again.
      if (i % 500 === 499 || i === total - 1) {
        const { traffic } = rollup.take();
        await writeBatch(t.database.db, { sessions: [], messages: [], toolCalls: [], usage: [], traffic });
      }
      // Half the writes folded into the grains, half still pending: reads must add both (trafficFold.ts).
      if (i === total / 2) await foldAllPendingTraffic(t.database.db);
    }
  });
  afterAll(() => (t as TestApp | undefined)?.close());

  function within(
    fromMs: number,
    toMs: number,
    keep: (call: (typeof calls)[number]) => boolean = () => true,
  ): number[] {
    return calls
      .filter((call) => call.endedMs >= fromMs && call.endedMs < toMs && keep(call))
      .map((call) => call.duration)
      .sort((a, b) => a - b);
  }

  const get = <T>(path: string) =>
    t.app
      .inject({
        method: 'GET',
        url: `/api/v1/workspaces/${account.workspaceId}/analytics/${path}`,
        headers: bearer(account.accessToken),
      })
      .then((res) => {
        expect(res.statusCode).toBe(200);
        return res.json<T>();
      });

  function expectWithinOnePercent(actual: number | null, exact: number, what: string): void {
    // 1 %, and a hair for floating point (a sketch's value may sit exactly on the bound).
    if (actual === null || Math.abs(actual - exact) > exact * 0.01 + 1e-9)
      throw new Error(`${what}: ${actual} is not within 1 % of ${exact}`);
  }

  it.each([
    // Ragged ends: minutes, hours and a whole day's rows in one range.
    ['a ragged range across midnight', start + 23 * 60_000, end - 31 * 60_000],
    ['every call', start - 86_400_000, end + 60_000],
    ['one hour and a bit', midnight + 60 * 60_000, midnight + 2 * 3_600_000 + 7 * 60_000],
    // Whole weeks (Monday to Monday) hold both days of calls: the sketch-only rollup's week rows.
    ['twenty days around every call', start - 10 * 86_400_000, end + 10 * 86_400_000],
  ])('%s: per server, per tool and overall within 1 %% of exact', async (_name, fromMs, toMs) => {
    const range = `from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
    const summary = await get<PerformanceSummaryResult>(`performance?format=summary&${range}`);
    expect(summary.servers.reduce((sum, server) => sum + server.calls, 0)).toBe(within(fromMs, toMs).length);
    for (const server of summary.servers) {
      const exact = within(fromMs, toMs, (call) => call.server === server.serverId);
      expect(server.calls).toBe(exact.length);
      for (const [q, key] of Q)
        expectWithinOnePercent(server[key], exactQuantile(exact, q), `${server.serverName} ${key}`);
      expect(server.maxMs).toBe(exact[exact.length - 1]);
    }
    expect(summary.tools).toHaveLength(6);
    for (const tool of summary.tools) {
      const exact = within(fromMs, toMs, (call) => call.server === tool.serverId && call.tool === tool.tool);
      for (const [q, key] of Q) expectWithinOnePercent(tool[key], exactQuantile(exact, q), `${tool.tool} ${key}`);
    }
    const overview = await get<AnalyticsOverviewResult>(`overview?${range}`);
    const all = within(fromMs, toMs);
    expect(overview.totals.calls).toBe(all.length);
    expectWithinOnePercent(overview.totals.p50Ms, exactQuantile(all, 0.5), 'overall p50');
    expectWithinOnePercent(overview.totals.p95Ms, exactQuantile(all, 0.95), 'overall p95');
  });

  it('hour and day rollups hold exactly what the minute rollups hold', async () => {
    await foldAllPendingTraffic(t.database.db);
    expect((await t.database.db.query<{ n: number }>('select count(*)::int as n from traffic_pending'))[0].n).toBe(0);
    const sums = await t.database.db.query<{ grain: string; calls: number; latency_count: number }>(
      `select grain, sum(calls)::int as calls, sum(n)::int as latency_count from (
         select 'minutes' as grain, calls, latency_zeros + (select coalesce(sum(c), 0) from unnest(latency_counts) c) as n from traffic_minutes
         union all select 'hours', calls, latency_zeros + (select coalesce(sum(c), 0) from unnest(latency_counts) c) from traffic_hours
         union all select 'days', calls, latency_zeros + (select coalesce(sum(c), 0) from unnest(latency_counts) c) from traffic_days) g
       group by grain order by grain`,
    );
    expect(sums).toEqual([
      { grain: 'days', calls: calls.length, latency_count: calls.length },
      { grain: 'hours', calls: calls.length, latency_count: calls.length },
      { grain: 'minutes', calls: calls.length, latency_count: calls.length },
    ]);
  });

  it('the sketch-only rollup (per workspace, per server, per tool) holds every answered call once at each grain, weeks too', async () => {
    await foldAllPendingTraffic(t.database.db);
    const sums = await t.database.db.query<{
      grain: string;
      per_workspace: number;
      per_server: number;
      per_tool: number;
      workspace_rows: number;
      server_rows: number;
      tool_rows: number;
    }>(
      `select grain, sum(n) filter (where server_id is null)::int as per_workspace,
              sum(n) filter (where server_id is not null and tool_name is null)::int as per_server, sum(n) filter (where tool_name is not null)::int as per_tool,
              count(*) filter (where server_id is null)::int as workspace_rows,
              count(*) filter (where server_id is not null and tool_name is null)::int as server_rows, count(*) filter (where tool_name <> '')::int as tool_rows
       from (select 'minutes' as grain, server_id, tool_name, zeros + (select coalesce(sum(c), 0) from unnest(counts) c) as n from latency_minutes
             union all select 'hours', server_id, tool_name, zeros + (select coalesce(sum(c), 0) from unnest(counts) c) from latency_hours
             union all select 'days', server_id, tool_name, zeros + (select coalesce(sum(c), 0) from unnest(counts) c) from latency_days
             union all select 'weeks', server_id, tool_name, zeros + (select coalesce(sum(c), 0) from unnest(counts) c) from latency_weeks) g
       group by grain order by grain`,
    );
    expect(
      sums.map(({ grain, per_workspace, per_server, per_tool }) => ({ grain, per_workspace, per_server, per_tool })),
    ).toEqual(
      ['days', 'hours', 'minutes', 'weeks'].map((grain) => ({
        grain,
        per_workspace: calls.length,
        per_server: calls.length,
        per_tool: calls.length,
      })),
    );
    // Two servers × three tools: each bucket has at most one row for the workspace, one per server and one per tool.
    const [days] = sums;
    expect(days.workspace_rows).toBe(2); // two UTC days
    expect(days.server_rows).toBe(2 * 2); // two UTC days, two servers
    expect(days.tool_rows).toBe(2 * 2 * 3);
    // The workspace's row of a bucket is its servers' rows merged: bin for bin (migration 023).
    const hourRows = await t.database.db.query<{
      bucket: Date | string;
      server_id: string | null;
      zeros: number;
      bins: number[];
      counts: number[];
    }>('select bucket, server_id, zeros, bins, counts from latency_hours where tool_name is null');
    const byHour = new Map<string, { workspace: LatencySketch; servers: LatencySketch }>();
    for (const row of hourRows) {
      const hour = new Date(row.bucket).toISOString();
      if (!byHour.has(hour)) byHour.set(hour, { workspace: new LatencySketch(), servers: new LatencySketch() });
      byHour.get(hour)![row.server_id === null ? 'workspace' : 'servers'].addArrays(row.zeros, row.bins, row.counts);
    }
    expect(byHour.size).toBeGreaterThan(2);
    for (const { workspace, servers } of byHour.values()) expect(workspace.toBins()).toEqual(servers.toBins());
    // Bins stay ascending and distinct after merges on conflict (the reader relies on neither, the upsert keeps both).
    const unsorted = await t.database.db.query<{ n: number }>(
      `select count(*)::int as n from latency_hours where bins <> array(select unnest(bins) order by 1) or cardinality(bins) <> cardinality(counts)`,
    );
    expect(unsorted[0].n).toBe(0);
    // The sums beside the sketches (migration 022): per tool and per server, what the full key holds, at every grain.
    const full = await t.database.db.query<{ calls: number; sessions: number; tokens: number }>(
      `select sum(calls)::int as calls, sum(sessions)::int as sessions, sum(argument_tokens + result_tokens + definition_tokens)::int as tokens from traffic_minutes`,
    );
    const level = `case when server_id is null then 'workspace' when tool_name is null then 'server' else 'tool' end`;
    const perLevel = await t.database.db.query<{
      grain: string;
      level: string;
      calls: number;
      sessions: number;
      tokens: number;
    }>(
      `select grain, level, sum(calls)::int as calls, sum(sessions)::int as sessions, sum(argument_tokens + result_tokens + definition_tokens)::int as tokens
       from (select 'minutes' as grain, ${level} as level, * from latency_minutes
             union all select 'hours', ${level}, * from latency_hours
             union all select 'days', ${level}, * from latency_days
             union all select 'weeks', ${level}, * from latency_weeks) g
       group by grain, level order by grain, level`,
    );
    expect(full[0].calls).toBe(calls.length);
    expect(perLevel).toEqual(
      ['days', 'hours', 'minutes', 'weeks'].flatMap((grain) =>
        ['server', 'tool', 'workspace'].map((level) => ({ grain, level, ...full[0] })),
      ),
    );
  });

  it('filtered by client, percentiles come from the full-key rows and stay within 1 % of exact', async () => {
    const fromMs = start + 23 * 60_000;
    const toMs = end - 31 * 60_000;
    const range = `from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
    const summary = await get<PerformanceSummaryResult>(`performance?format=summary&${range}&client=agent-b`);
    expect(summary.servers).toHaveLength(2);
    for (const server of summary.servers) {
      const exact = within(fromMs, toMs, (call) => call.server === server.serverId && call.client === 'agent-b');
      expect(server.calls).toBe(exact.length);
      for (const [q, key] of Q)
        expectWithinOnePercent(server[key], exactQuantile(exact, q), `agent-b on ${server.serverName} ${key}`);
    }
    const overview = await get<AnalyticsOverviewResult>(`overview?${range}&client=agent-b`);
    const exact = within(fromMs, toMs, (call) => call.client === 'agent-b');
    expect(overview.totals.calls).toBe(exact.length);
    expectWithinOnePercent(overview.totals.p95Ms, exactQuantile(exact, 0.95), 'agent-b p95');
  });

  it('a series per server holds every call of the range once, with or without a client filter', async () => {
    const fromMs = start + 23 * 60_000;
    const toMs = end - 31 * 60_000;
    const range = `from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
    for (const client of [null, 'agent-b']) {
      const series = await get<PerformanceSeriesResult>(`performance?${range}${client ? `&client=${client}` : ''}`);
      for (const serverId of servers) {
        const exact = within(
          fromMs,
          toMs,
          (call) => call.server === serverId && (client === null || call.client === client),
        );
        const points = series.servers.find((server) => server.serverId === serverId)!.series;
        expect(points.reduce((sum, point) => sum + point.calls, 0)).toBe(exact.length);
        // One hour fully inside the range: its p95 from the merged sketches.
        const hour = points.find((point) => Date.parse(point.t) >= fromMs + 3_600_000 && point.calls > 0)!;
        const inHour = within(
          Date.parse(hour.t),
          Date.parse(hour.t) + 3_600_000,
          (call) => call.server === serverId && (client === null || call.client === client),
        );
        expectWithinOnePercent(
          hour.p95Ms,
          exactQuantile(inHour, 0.95),
          `${client ?? 'all clients'} on ${serverId} at ${hour.t}`,
        );
      }
    }
  });
});
