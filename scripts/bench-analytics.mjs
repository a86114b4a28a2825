// `node scripts/bench-analytics.mjs` (part of `npm run bench`): the analytics calls at scale, and
// what tokenizing costs the recorder.
// Part 1 seeds one workspace with the rollups of 10,000,000 calls over 90 days — 5 servers × 8 tools
// × 4 clients; day and hour rows for all 90 days, minute rows for the last 48 hours and around
// every range's start (the only places a range reads minutes), the sketch-only rows (per tool,
// per server and per workspace; weeks too) of the same buckets, 100,000 sessions with their token sums — into a
// fresh database (in-memory PGlite, or PostgreSQL with BENCH_DATABASE_URL=postgres://…, a scratch
// database created and dropped), then times the five calls through the real app (fastify inject:
// auth, workspace guard, validation, serialization) for each range, next to GET /config, the
// cheapest route, measured in the same run. Prints p50/p95 and the ratio to the baseline.
// Part 2 runs the recorder's write loop on batches of 250 settled calls without analytics, with
// the tokenizer in the write and with the tokenizer thread, and prints the throughput ratios.
// Options (env): BENCH_CALLS (10000000), BENCH_RUNS (20), BENCH_RECORDER_BATCHES (40),
// BENCH_RECORDER_ROUNDS (6), BENCH_FOLD_MS (5000), BENCH_RANGES (24h,7d,30d,90d), BENCH_PARTS (calls,recorder).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { requireSource as require } from './lib/tsSources.mjs';
import { seedBenchAccount } from './lib/benchAccount.mjs';
const { createScratchDatabase } = require('../test/server/helpers/scratchDatabase.ts');
const { openDatabase } = require('../src/server/db/database.ts');
const { migrate } = require('../src/server/db/migrate.ts');
const { buildApp } = require('../src/server/app.ts');
const { loadConfig, generateSecret } = require('../src/server/config.ts');
const { signAccessToken } = require('../src/server/auth/accessToken.ts');
const { issueRefreshToken } = require('../src/server/auth/refreshTokens.ts');
const { writeBatch } = require('../src/server/recording/batchWriter.ts');
const { TrafficRollup } = require('../src/server/recording/trafficRollup.ts');
const { TokenizerThread } = require('../src/server/recording/tokenizerThread.ts');
const { LatencySketch } = require('../src/server/recording/latencySketch.ts');
const { foldAllPendingTraffic } = require('../src/server/recording/trafficFold.ts');

const CALLS = Number(process.env.BENCH_CALLS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const RECORDER_BATCHES = Number(process.env.BENCH_RECORDER_BATCHES ?? 40);
const RECORDER_ROUNDS = Number(process.env.BENCH_RECORDER_ROUNDS ?? 6);
const FOLD_MS = Number(process.env.BENCH_FOLD_MS ?? 5000);
const RANGES = (process.env.BENCH_RANGES ?? '24h,7d,30d,90d').split(',');
const PARTS = (process.env.BENCH_PARTS ?? 'calls,recorder').split(',');
const SERVERS = 5;
const TOOLS = [
  'read_file',
  'write_file',
  'search_docs',
  'run_query',
  'fetch_url',
  'list_directory',
  'create_issue',
  'send_email',
];
const CLIENTS = ['claude-code', 'cursor', 'windsurf', 'custom-agent'];
const DAYS = 90;
const HOUR = 3_600_000;

async function openScratchDatabase() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { db: await openDatabase({}), engine: 'pglite (in memory)', drop: async () => {} };
  const scratch = await createScratchDatabase(base, 'toolscope_bench');
  return { db: await openDatabase({ databaseUrl: scratch.url }), engine: 'postgresql', drop: () => scratch.drop() };
}

/** Sketches of realistic latencies (log-normal-ish around 40 ms), `calls` values each. */
function sketches(calls, count) {
  const pool = [];
  for (let i = 0; i < count; i += 1) {
    const sketch = new LatencySketch();
    for (let c = 0; c < calls; c += 1) sketch.add(Math.round(Math.exp(2 + Math.random() * 2.5 + Math.random() * 1.5)));
    pool.push(sketch.toBins());
  }
  return pool;
}

/** As the rollups store them (migration 021): zeros, bins ascending, counts. */
function sketchPool(calls, count) {
  return sketches(calls, count).map((bins, i) => {
    const keys = Object.keys(bins)
      .filter((key) => key !== 'z')
      .map(Number)
      .sort((a, b) => a - b);
    return { i, zeros: bins.z ?? 0, bins: keys, counts: keys.map((key) => bins[String(key)]) };
  });
}

async function seed(db) {
  const { userId, workspaceId, serverIds } = await seedBenchAccount(db, { servers: SERVERS });
  const keys = SERVERS * TOOLS.length * CLIENTS.length;
  const now = Date.now();
  const lastHour = Math.floor(now / HOUR) * HOUR;
  // Calls per key and bucket, so that the 90 days hold CALLS calls.
  const perHour = CALLS / (DAYS * 24 * keys);
  const grains = [
    {
      table: 'traffic_days',
      sketchTable: 'latency_days',
      step: 24 * HOUR,
      calls: perHour * 24,
      pool: sketchPool(Math.min(400, Math.round(perHour * 24)), 32),
    },
    {
      table: 'traffic_hours',
      sketchTable: 'latency_hours',
      step: HOUR,
      calls: perHour,
      pool: sketchPool(Math.max(1, Math.round(perHour)), 32),
    },
  ];
  for (const grain of grains) {
    const first = Math.floor((now - DAYS * 24 * HOUR) / grain.step) * grain.step;
    const buckets = Math.ceil((now - first) / grain.step);
    await insertRollups(db, grain.table, workspaceId, serverIds, first, grain.step, buckets, grain.calls, grain.pool);
    await insertSketches(db, grain.sketchTable, workspaceId, serverIds, first, grain.step, buckets, grain.calls);
  }
  // Weeks of the sketch-only rollup (from Mondays; 1970-01-05 was one).
  const WEEK = 7 * 24 * HOUR;
  const MONDAY = 4 * 24 * HOUR;
  const firstWeek = MONDAY + Math.floor((now - DAYS * 24 * HOUR - MONDAY) / WEEK) * WEEK;
  await insertSketches(
    db,
    'latency_weeks',
    workspaceId,
    serverIds,
    firstWeek,
    WEEK,
    Math.ceil((now - firstWeek) / WEEK),
    perHour * 24 * 7,
  );
  // Minutes: the last 48 hours, and two hours around the start of each range and of the period before it.
  const minutePool = sketchPool(2, 32);
  const perMinute = perHour / 60;
  const minuteSpans = [[lastHour - 47 * HOUR, 48 * 60 + Math.ceil((now - lastHour) / 60_000)]];
  for (const days of [2, 7, 14, 30, 60, 90, 180])
    minuteSpans.push([Math.floor((now - days * 24 * HOUR) / HOUR) * HOUR - HOUR, 120]);
  for (const [start, buckets] of minuteSpans) {
    await insertRollups(db, 'traffic_minutes', workspaceId, serverIds, start, 60_000, buckets, perMinute, minutePool);
    await insertSketches(db, 'latency_minutes', workspaceId, serverIds, start, 60_000, buckets, perMinute);
  }
  // The sums beside the sketches (migrations 022, 023): per tool, per server and per workspace, from the traffic rows of the same grain.
  for (const grain of ['minutes', 'hours', 'days']) await fillSums(db, `latency_${grain}`, `traffic_${grain}`);
  // Weeks from the days' rows, all levels (group by keeps a null tool_name or server_id, a server's or the workspace's row, as one key).
  await fillSums(
    db,
    'latency_weeks',
    'latency_days',
    `date_bin('7 days'::interval, bucket, '1970-01-05T00:00:00Z'::timestamptz)`,
    true,
  );
  // Sessions with their token sums (100 calls each), over the 90 days.
  const sessions = Math.round(CALLS / 100);
  await db.query(
    `insert into sessions (workspace_id, server_id, transport, client_name, status, started_at, last_activity_at, ended_at,
       message_count, call_count, error_count, argument_tokens, result_tokens, definition_tokens)
     select $1, ($2::uuid[])[1 + g % ${SERVERS}], 'streamable-http', ($3::text[])[1 + g % 4], 'ended',
       now() - make_interval(secs => g * ${(DAYS * 86_400) / sessions}), now() - make_interval(secs => g * ${(DAYS * 86_400) / sessions} - 600),
       now() - make_interval(secs => g * ${(DAYS * 86_400) / sessions} - 600), 204, 100, g % 3, 4000 + g % 500, 30000 + g % 7000, 6000
     from generate_series(1, $4::int) g`,
    [workspaceId, serverIds, CLIENTS, sessions],
  );
  // Vacuumed as autovacuum would have over 90 days: index-only scans need the visibility map.
  await db.query('vacuum analyze');
  const counts =
    await db.query(`select (select count(*) from traffic_minutes)::int as minutes, (select count(*) from traffic_hours)::int as hours, (select count(*) from traffic_days)::int as days,
    (select count(*) from latency_minutes)::int + (select count(*) from latency_hours)::int + (select count(*) from latency_days)::int
      + (select count(*) from latency_weeks)::int as sketches`);
  return { userId, workspaceId, serverIds, rows: counts[0] };
}

/** The sums of the per-tool, per-server and per-workspace rows (migrations 022, 023) from `source`, as the fold adds them. */
async function fillSums(db, table, source, bucket = 'bucket', fromSums = false) {
  const names = [
    'calls',
    'protocol_errors',
    'server_errors',
    'tool_errors',
    'sessions',
    'argument_tokens',
    'result_tokens',
    'definition_tokens',
  ];
  const sets = fromSums
    ? 'group by 1, 2, 3, 4'
    : 'group by grouping sets ((workspace_id, bucket, server_id, tool_name), (workspace_id, bucket, server_id), (workspace_id, bucket))';
  await db.query(
    `insert into ${table} (workspace_id, bucket, server_id, tool_name, ${names.join(', ')}, duration_max_ms, last_call_at)
     select workspace_id, ${bucket}, server_id, tool_name, ${names.map((n) => `sum(${n})`).join(', ')}, max(duration_max_ms), max(last_call_at)
     from ${source} ${sets}
     on conflict (workspace_id, bucket, server_id, tool_name) do update set ${names.map((n) => `${n} = excluded.${n}`).join(', ')},
       duration_max_ms = excluded.duration_max_ms, last_call_at = excluded.last_call_at`,
  );
}

/** Rows of every key for `buckets` buckets from `first`, ~`calls` calls each (whole numbers that add up). */
async function insertRollups(db, table, workspaceId, serverIds, first, step, buckets, calls, pool) {
  await db.query(
    `insert into ${table} (workspace_id, bucket, server_id, tool_name, client_name, platform_key_id, calls, protocol_errors, server_errors, tool_errors,
       sessions, argument_tokens, result_tokens, definition_tokens, duration_sum_ms, duration_max_ms, last_call_at, latency_zeros, latency_bins, latency_counts)
     select $1, b.bucket, s.id, t.name, c.name, null, n.calls, (n.calls / 200)::int, (n.calls / 150)::int, (n.calls / 60)::int,
       (n.calls / 100)::int, n.calls * 40, n.calls * 300, n.calls * 60, n.calls * 80, 2500, b.bucket, p.zeros, p.bins, p.counts
     from (select to_timestamp(($2::float8 + g * $3::float8) / 1000) as bucket, g from generate_series(0, $4::int - 1) g) b
     cross join unnest($5::uuid[]) as s(id) cross join unnest($6::text[]) as t(name) cross join unnest($8::text[]) as c(name)
     cross join lateral (select floor($9::float8 * (0.5 + (abs(hashtext(s.id::text || t.name || c.name || b.g::text)) % 1000) / 1000.0)
       + (abs(hashtext(b.g::text || c.name || t.name || s.id::text)) % 1000) / 1000.0)::int as calls) n
     join json_to_recordset($7::json) as p(i int, zeros int, bins int[], counts int[])
       on p.i = abs(hashtext(s.id::text || t.name || c.name || b.bucket::text)) % ${pool.length}
     where n.calls > 0`,
    [workspaceId, first, step, buckets, serverIds, TOOLS, JSON.stringify(pool), CLIENTS, calls],
  );
}

/**
 * The sketch-only rows of the same buckets: per tool (the calls of its 4 clients), per server
 * (its 32 keys) and per workspace (server_id null: all 160 keys, migration 023), each from a pool
 * of sketches of about as many calls (at most 20,000 values).
 */
async function insertSketches(db, table, workspaceId, serverIds, first, step, buckets, callsPerKey) {
  const levels = [
    { servers: serverIds, tools: TOOLS, calls: callsPerKey * CLIENTS.length },
    { servers: serverIds, tools: [null], calls: callsPerKey * CLIENTS.length * TOOLS.length },
    { servers: [null], tools: [null], calls: callsPerKey * CLIENTS.length * TOOLS.length * serverIds.length },
  ];
  for (const level of levels) {
    const pool = sketchPool(Math.max(1, Math.min(20_000, Math.round(level.calls))), 16);
    await db.query(
      `insert into ${table} (workspace_id, bucket, server_id, tool_name, zeros, bins, counts)
       select $1, b.bucket, s.id, t.name, p.zeros, p.bins, p.counts
       from (select to_timestamp(($2::float8 + g * $3::float8) / 1000) as bucket, g from generate_series(0, $4::int - 1) g) b
       cross join unnest($5::uuid[]) as s(id) cross join unnest($6::text[]) as t(name)
       join json_to_recordset($7::json) as p(i int, zeros int, bins int[], counts int[])
         on p.i = abs(hashtext(coalesce(s.id::text, '') || coalesce(t.name, '') || b.g::text)) % ${16}`,
      [workspaceId, first, step, buckets, level.servers, level.tools, JSON.stringify(pool)],
    );
  }
}

async function time(fn, runs = RUNS) {
  for (let i = 0; i < 3; i += 1) await fn();
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return {
    p50: samples[Math.floor(samples.length * 0.5)],
    p95: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.95))],
  };
}

const fmt = (ms) => ms.toFixed(1).padStart(8);

async function analyticsCalls(db, engine) {
  const seedStart = performance.now();
  const { userId, workspaceId, serverIds, rows } = await seed(db);
  const seedMs = performance.now() - seedStart;
  const config = loadConfig({}, { secret: generateSecret(), clientDir: undefined });
  const app = await buildApp({ config, db });
  await app.ready();
  try {
    // Every access token belongs to a sign-in that must hold (auth/guards.ts): start one.
    const token = signAccessToken(userId, config.secret, (await issueRefreshToken(db, userId)).familyId);
    const base = `/api/v1/workspaces/${workspaceId}/analytics`;
    const call =
      (url, auth = true) =>
      async () => {
        const res = await app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${token}` } : {} });
        if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
        return res.json();
      };
    const total = await call(`${base}/overview?range=90d`)();
    const baseline = await time(call('/api/v1/config', false));
    console.log(
      `analytics bench — ${engine}: ${total.totals.calls.toLocaleString('en')} calls in 90 days (rollup rows: ${rows.days.toLocaleString('en')} days, ${rows.hours.toLocaleString('en')} hours, ${rows.minutes.toLocaleString('en')} minutes, ${rows.sketches.toLocaleString('en')} sketch-only rows; seeded in ${(seedMs / 1000).toFixed(0)} s), ${RUNS} runs each`,
    );
    console.log(`baseline GET /api/v1/config: p50 ${fmt(baseline.p50)} ms  p95 ${fmt(baseline.p95)} ms`);
    console.log(`${'GET …/analytics/…'.padEnd(40)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  ×config(p95)`);
    let worst = 0;
    for (const range of RANGES) {
      for (const path of ['overview', 'costs', 'performance?format=summary', 'performance', 'usage/daily', 'tools']) {
        const url = `${base}/${path}${path.includes('?') ? '&' : '?'}range=${range}`;
        const timing = await time(call(url));
        worst = Math.max(worst, timing.p95);
        console.log(
          `${`${path} ${range}`.padEnd(40)} ${fmt(timing.p50)} ${fmt(timing.p95)}  ${(timing.p95 / baseline.p95).toFixed(0).padStart(8)}`,
        );
      }
    }
    const filtered = await time(call(`${base}/costs?range=90d&serverId=${serverIds[1]}&tool=search_docs`));
    console.log(
      `${'costs 90d, server + tool filter'.padEnd(40)} ${fmt(filtered.p50)} ${fmt(filtered.p95)}  ${(filtered.p95 / baseline.p95).toFixed(0).padStart(8)}`,
    );
    console.log(`slowest p95: ${worst.toFixed(1)} ms (target: ${engine.startsWith('pglite') ? '250' : '100'} ms)`);
  } finally {
    await app.close();
  }
}

/** Settled calls as the recorder holds them: request and response text, arguments and result values. */
function settledCalls(workspaceId, serverId, sessionId, count, offset) {
  const calls = [];
  const at = new Date().toISOString();
  for (let i = 0; i < count; i += 1) {
    const n = offset + i;
    const args = {
      path: `/srv/data/project-${n % 97}/notes-${n}.md`,
      query: `quarterly revenue by region ${n % 13}`,
      limit: 20,
    };
    const text =
      `Found ${n % 40} matching lines.\n` +
      Array.from(
        { length: 12 },
        (_, k) => `line ${k}: revenue for region ${(n + k) % 13} rose ${(n * k) % 17}% against the previous quarter`,
      ).join('\n');
    const result = { content: [{ type: 'text', text }] };
    const request = JSON.stringify({
      jsonrpc: '2.0',
      id: n,
      method: 'tools/call',
      params: { name: TOOLS[n % 8], arguments: args },
    });
    const response = JSON.stringify({ jsonrpc: '2.0', id: n, result });
    calls.push({
      id: randomUUID(),
      workspace_id: workspaceId,
      server_id: serverId,
      server_name: 'server-0',
      session_id: sessionId,
      jsonrpc_id: String(n),
      tool_name: TOOLS[n % 8],
      arguments: args,
      result,
      error_message: null,
      status: 'ok',
      started_at: at,
      ended_at: at,
      duration_ms: 20 + (n % 200),
      request_bytes: request.length,
      response_bytes: response.length,
      tokens_estimate: Math.ceil((request.length + response.length) / 4),
      meta: null,
      traceparent: null,
      request_seq: 2 * n + 1,
      request_payload: request,
      request_truncated: false,
      response_seq: 2 * n + 2,
      response_kind: 'response',
      response_payload: response,
      response_truncated: false,
    });
  }
  return calls;
}

/**
 * The recorder's write loop over RECORDER_BATCHES batches, as writeQueue.ts runs it: calls settle
 * (are added) while the previous batch is written; a write waits for outstanding token counts,
 * takes the rollup and writes. Returns calls per second of wall time. `mode`: 'plain' (no
 * analytics), 'inline' (tokenizing in take, on this thread: the design before the tokenizer
 * thread), 'thread' (tokenizing on the tokenizer thread), 'counted' (the calls carry their counts:
 * the analytics work without tokenizing, a reference).
 */
async function recorderLoop(db, ids, mode, offset) {
  const BATCH = 250;
  const batches = Array.from({ length: RECORDER_BATCHES }, (_, b) =>
    settledCalls(ids.workspaceId, ids.serverId, ids.sessionId, BATCH, offset + b * BATCH),
  );
  // 'counted': the calls come with their token counts (as if tokenizing were free): the rest of the analytics work alone.
  if (mode === 'counted')
    for (const batch of batches)
      for (const call of batch) Object.assign(call, { argument_tokens: 40, result_tokens: 220 });
  const rollup = mode === 'plain' ? null : new TrafficRollup(mode === 'thread' ? TokenizerThread.shared() : null);
  const start = performance.now();
  let lastFold = start;
  if (rollup) for (const call of batches[0]) rollup.add(call);
  for (let b = 0; b < RECORDER_BATCHES; b += 1) {
    let traffic = null;
    if (rollup) {
      await rollup.ready();
      traffic = rollup.take().traffic;
    }
    const write = writeBatch(db, { sessions: [], messages: [], toolCalls: batches[b], usage: [], traffic });
    // The next batch's calls settle while this one is written.
    if (rollup && b + 1 < RECORDER_BATCHES) for (const call of batches[b + 1]) rollup.add(call);
    await write;
    // The fold of the pending increments (trafficFold.ts): as the recorder does, FOLD_MS after the
    // first write since the last fold — and always at the end, inside the timed loop: at least one
    // fold per RECORDER_BATCHES × 250 calls, more often than the recorder folds at these rates.
    if (rollup && (performance.now() - lastFold >= FOLD_MS || b === RECORDER_BATCHES - 1)) {
      await foldAllPendingTraffic(db);
      lastFold = performance.now();
    }
  }
  return (RECORDER_BATCHES * BATCH) / ((performance.now() - start) / 1000);
}

async function recorderCost(db) {
  const [{ workspace_id: workspaceId, server_id: serverId, id: sessionId }] = await db.query(
    'select workspace_id, server_id, id from sessions limit 1',
  );
  const ids = { workspaceId, serverId, sessionId };
  const modes = ['plain', 'inline', 'thread', 'counted'];
  const ratios = { inline: [], thread: [], counted: [], tokenizing: [] };
  const rates = { plain: 0, inline: 0, thread: 0, counted: 0 };
  let offset = 0;
  // The thread is started (gpt-tokenizer loaded, ~250 ms) before anything is timed, as the app
  // starts it long before its traffic: the first round's thread loop used to include it.
  await TokenizerThread.shared()?.count(['warm up']);
  // Interleaved rounds, the order rotated each round; the median ratio to 'plain' decides.
  for (let round = 0; round < RECORDER_ROUNDS; round += 1) {
    const rate = {};
    for (let i = 0; i < modes.length; i += 1) {
      const mode = modes[(i + round) % modes.length];
      rate[mode] = await recorderLoop(db, ids, mode, offset);
      offset += RECORDER_BATCHES * 250;
    }
    for (const mode of ['inline', 'thread', 'counted']) ratios[mode].push(rate[mode] / rate.plain);
    ratios.tokenizing.push(rate.thread / rate.counted);
    Object.assign(rates, rate);
  }
  const median = (values) => {
    const sorted = [...values].sort((x, y) => x - y);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  console.log(
    `\nrecorder write loop, ${RECORDER_BATCHES} batches of 250 settled calls (~1.3 KB result text each), ${RECORDER_ROUNDS} interleaved rounds:`,
  );
  console.log(
    `  calls/s (last round): without analytics ${Math.round(rates.plain).toLocaleString('en')}; tokenizing in the write ${Math.round(rates.inline).toLocaleString('en')}; tokenizing on the thread ${Math.round(rates.thread).toLocaleString('en')}; counts given (no tokenizing) ${Math.round(rates.counted).toLocaleString('en')}`,
  );
  for (const mode of ['inline', 'thread', 'counted']) {
    const m = median(ratios[mode]);
    console.log(
      `  ${mode.padEnd(7)} throughput with / without, per round: ${ratios[mode].map((r) => r.toFixed(2)).join(' ')}; median ${m.toFixed(2)} → analytics cost ${((1 - m) * 100).toFixed(0)} %`,
    );
  }
  // The issue's figure: what tokenizing (and pricing, which the recorder does not do: prices apply
  // when analytics is read) costs — the same analytics work with the counts to find vs given.
  const t = median(ratios.tokenizing);
  console.log(
    `  tokenizing: thread / counts given, per round: ${ratios.tokenizing.map((r) => r.toFixed(2)).join(' ')}; median ${t.toFixed(2)} → tokenizing cost ${((1 - t) * 100).toFixed(0)} % (target ≤ 10 %)`,
  );
}

async function main() {
  const { db, engine, drop } = await openScratchDatabase();
  try {
    await migrate(db);
    if (PARTS.includes('calls')) await analyticsCalls(db, engine);
    else await seed(db); // the recorder part writes into the seeded workspace
    if (PARTS.includes('recorder')) await recorderCost(db);
  } finally {
    await db.close();
    await drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
