// `node scripts/bench-sessions.mjs` (part of `npm run bench`): the sessions list at scale.
// Seeds 100,000 sessions (and two tool calls each, stored as the recorder stores them) into a fresh database — in-memory PGlite, or
// PostgreSQL when BENCH_DATABASE_URL=postgres://… (a scratch database is created and dropped) —
// then times list pages, filters and text search through the real app (fastify inject: routing,
// auth, workspace guard, validation, serialization), next to two baselines measured in the same
// run: a bare `select 1` and GET /api/v1/config (the cheapest route). Prints p50/p95 and ratios.
// Options (env): BENCH_SESSIONS (default 100000), BENCH_RUNS (default 30), BENCH_KEEP_DATABASE=1
// (PostgreSQL: keep the scratch database to EXPLAIN queries by hand).
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

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const SERVERS = 5;
const CALLS_PER_SESSION = 2;

async function openScratchDatabase() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { db: await openDatabase({}), engine: 'pglite (in memory)', drop: async () => {} };
  const scratch = await createScratchDatabase(base, 'toolscope_bench');
  return {
    db: await openDatabase({ databaseUrl: scratch.url }),
    engine: 'postgresql',
    drop: async () => {
      if (process.env.BENCH_KEEP_DATABASE) return console.log(`kept database ${scratch.name}`);
      await scratch.drop();
    },
  };
}

/** One user, one workspace, SERVERS servers, SESSIONS sessions over 30 days, 2 calls each. */
async function seed(db) {
  const { userId, workspaceId, serverIds } = await seedBenchAccount(db, { servers: SERVERS });
  const clients = ['claude-code', 'cursor', 'windsurf', 'inspector', 'custom-agent'];
  await db.query(
    `insert into sessions (workspace_id, server_id, transport, protocol_version, client_name, client_version, status,
       started_at, last_activity_at, ended_at, message_count, call_count, error_count)
     select $1, ($2::uuid[])[1 + g % ${SERVERS}], 'streamable-http', '2025-06-18', ($3::text[])[1 + (g / 7) % 5], '1.0.' || (g % 10),
       case when g % 50 = 0 then 'active' else 'ended' end,
       now() - make_interval(secs => g * 26), now() - make_interval(secs => g * 26 - 20),
       case when g % 50 = 0 then null else now() - make_interval(secs => g * 26 - 20) end, 6, ${CALLS_PER_SESSION}, (g % 9 = 0)::int
     from generate_series(1, $4::int) g`,
    [workspaceId, serverIds, clients, SESSIONS],
  );
  const tools = [
    'read_file',
    'write_file',
    'search_docs',
    'run_query',
    'fetch_url',
    'list_directory',
    'create_issue',
    'send_email',
  ];
  const words = [
    'invoice',
    'quarterly',
    'revenue',
    'kubernetes',
    'deployment',
    'customer',
    'report',
    'migration',
    'latency',
    'budget',
  ];
  // Calls as the recorder stores them since migration 007: the exact request and response text in
  // the call's row (arguments and result are read out of it, and search indexes the arguments).
  await db.query(
    `insert into tool_calls (workspace_id, server_id, session_id, jsonrpc_id, tool_name, status, started_at,
       ended_at, duration_ms, request_bytes, response_bytes, tokens_estimate,
       request_seq, request_payload, response_seq, response_kind, response_payload)
     select workspace_id, server_id, session_id, c::text, tool, 'ok', started_at + make_interval(secs => c),
       started_at + make_interval(secs => c + 1), 40, 180, 220, 60,
       2 * c + 1, jsonb_build_object('jsonrpc', '2.0', 'id', c, 'method', 'tools/call', 'params', jsonb_build_object('name', tool, 'arguments', args))::text,
       2 * c + 2, 'response', '{"jsonrpc":"2.0","id":' || c || ',"result":{"content":[{"type":"text","text":"ok"}]}}'
     from (
       select s.workspace_id, s.server_id, s.id as session_id, s.started_at, c, ($2::text[])[1 + (abs(hashtext(s.id::text)) + c) % 8] as tool,
         jsonb_build_object('path', '/data/' || ($3::text[])[1 + abs(hashtext(s.id::text || c)) % 10] || '/' || left(s.id::text, 8) || '.txt',
                            'query', ($3::text[])[1 + (abs(hashtext(s.id::text)) / 10 + c) % 10] || ' ' || ($3::text[])[1 + (abs(hashtext(s.id::text)) / 100) % 10]) as args
       from sessions s cross join generate_series(1, ${CALLS_PER_SESSION}) c where s.workspace_id = $1
     ) calls`,
    [workspaceId, tools, words],
  );
  // Make exactly one session findable by a word nothing else uses (the "needle" search).
  await db.query(
    `update tool_calls set request_payload = jsonb_set(request_payload::jsonb, '{params,arguments,ticket}', '"zebracorn-4711"')::text
     where id = (select id from tool_calls where workspace_id = $1 order by started_at limit 1 offset 5000)`,
    [workspaceId],
  );
  await db.query('analyze');
  return { userId, workspaceId, serverIds };
}

async function time(fn) {
  for (let i = 0; i < 3; i += 1) await fn();
  const samples = [];
  for (let i = 0; i < RUNS; i += 1) {
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

const fmt = (ms) => ms.toFixed(2).padStart(9);

async function main() {
  const { db, engine, drop } = await openScratchDatabase();
  try {
    await migrate(db);
    const seedStart = performance.now();
    const { userId, workspaceId, serverIds } = await seed(db);
    const seedMs = performance.now() - seedStart;
    const config = loadConfig({}, { secret: generateSecret(), clientDir: undefined });
    const app = await buildApp({ config, db });
    await app.ready();
    // Every access token belongs to a sign-in that must hold (auth/guards.ts): start one.
    const token = signAccessToken(userId, config.secret, (await issueRefreshToken(db, userId)).familyId);
    const base = `/api/v1/workspaces/${workspaceId}`;
    const call =
      (url, auth = true) =>
      async () => {
        const res = await app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${token}` } : {} });
        if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
        return String(res.headers['content-type']).startsWith('application/json') ? res.json() : res.body;
      };

    const totals = await call(`${base}/sessions?limit=1`)();
    const scenarios = [
      ['first page (50)', `${base}/sessions?limit=50`],
      ['page 101 (offset 5,000)', `${base}/sessions?limit=50&offset=5000`],
      [`last page (offset ${totals.total - 50})`, `${base}/sessions?limit=50&offset=${totals.total - 50}`],
      ['filter: server', `${base}/sessions?limit=50&serverId=${serverIds[2]}`],
      ['filter: status=active', `${base}/sessions?limit=50&status=active`],
      ['filter: client prefix', `${base}/sessions?limit=50&client=wind`],
      [
        'filter: last 24 h',
        `${base}/sessions?limit=50&from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`,
      ],
      ['search: common word', `${base}/sessions?limit=50&q=revenue`],
      ['search: tool name', `${base}/sessions?limit=50&q=read_file`],
      ['search: rare word', `${base}/sessions?limit=50&q=zebracorn`],
      // Issue 14 item 11: sorts by a computed column, the errors filter, the export.
      ['sort: cost', `${base}/sessions?limit=50&sort=cost`],
      ['sort: duration, ascending', `${base}/sessions?limit=50&sort=duration&order=asc`],
      ['filter: has errors', `${base}/sessions?limit=50&hasErrors=true`],
      ['export: CSV (10,000)', `${base}/sessions/export?format=csv`],
      ['activity stream (50)', `${base}/sessions/activity-stream?limit=50`],
      ['dashboard overview', `${base}/dashboard/overview`],
    ];

    const selectOne = await time(() => db.query('select 1'));
    const configRoute = await time(call('/api/v1/config', false));
    console.log(
      `sessions bench — ${engine}, ${totals.total.toLocaleString('en')} sessions, ${(totals.total * CALLS_PER_SESSION).toLocaleString('en')} tool calls (seeded in ${(seedMs / 1000).toFixed(1)} s), ${RUNS} runs each`,
    );
    console.log(`baseline  select 1:        p50 ${fmt(selectOne.p50)} ms  p95 ${fmt(selectOne.p95)} ms`);
    console.log(`baseline  GET /config:     p50 ${fmt(configRoute.p50)} ms  p95 ${fmt(configRoute.p95)} ms`);
    console.log('');
    console.log(
      `${'GET …/sessions'.padEnd(32)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)}  ${'rows'.padStart(6)} ${'total'.padStart(7)}  ×select1  ×config`,
    );
    for (const [name, url] of scenarios) {
      const body = await call(url)();
      const timing = await time(call(url));
      const rows = body.sessions?.length ?? body.events?.length ?? body.latestActivity?.length ?? 0;
      console.log(
        `${name.padEnd(32)} ${fmt(timing.p50)} ${fmt(timing.p95)}  ${String(rows).padStart(6)} ${String(body.total ?? '').padStart(7)}  ${(timing.p50 / selectOne.p50).toFixed(0).padStart(8)} ${(timing.p50 / configRoute.p50).toFixed(1).padStart(8)}`,
      );
    }
    await app.close();
  } finally {
    await db.close();
    await drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
