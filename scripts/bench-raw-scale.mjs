// `node scripts/bench-raw-scale.mjs` (BENCH_DATABASE_URL=postgres://… required): the screens that
// read raw rows, at 10 M and 50 M stored calls, and the expiry job's cost at that size
// (docs/scaling.md "Measured limits of one database"). A scratch database is created and dropped.
// The raw tables are seeded a week partition at a time (scripts/lib/rawSeed.mjs: 10 M calls a week,
// ~1.4 M a day, newest week first, so every stage ends now and a bigger stage has more history);
// after each stage the screens are timed through the real app (fastify inject: auth, workspace
// guard, validation, serialization) next to GET /api/v1/config in the same run, with the load
// average beside every figure. Last, the expiry: row deletes of a shorter window (`expireRawData`
// of the oldest BENCH_DELETE_HOURS hours) and dropping the oldest week's partition.
// Options (env): BENCH_STAGES (calls after each stage, default 10000000,50000000), BENCH_WEEK_CALLS
// (10000000), BENCH_RUNS (20), BENCH_DELETE_HOURS (24), BENCH_MIN_FREE_GB (8: a week is seeded only
// if the disk keeps this much free after it), BENCH_STOP_SEEDING_AT (an ISO time: no week is begun
// that would end after it; the last stage is measured with what is there), BENCH_PAUSE_FILE (no
// week is begun while this file exists), BENCH_SLOW_MS (10000: a screen slower than this is timed
// once), BENCH_REUSE_DATABASE=name (measure a database a run before left as it is, then drop it),
// BENCH_KEEP_DATABASE=1.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { requireSource as require } from './lib/tsSources.mjs';
import { seedBenchAccount } from './lib/benchAccount.mjs';
import { CALLS_PER_SESSION, dropBeforePartitions, rawSizes, seedWeek, weekStart } from './lib/rawSeed.mjs';
const { createScratchDatabase } = require('../test/server/helpers/scratchDatabase.ts');
const { openDatabase } = require('../src/server/db/database.ts');
const { migrate } = require('../src/server/db/migrate.ts');
const { buildApp } = require('../src/server/app.ts');
const { loadConfig, generateSecret } = require('../src/server/config.ts');
const { signAccessToken } = require('../src/server/auth/accessToken.ts');
const { issueRefreshToken } = require('../src/server/auth/refreshTokens.ts');
const { expireRawData } = require('../src/server/data/retention/expiry.ts');
const { dropPartitionsBefore } = require('../src/server/data/retention/partitions.ts');

const STAGES = (process.env.BENCH_STAGES ?? '10000000,50000000').split(',').map(Number);
const WEEK_CALLS = Number(process.env.BENCH_WEEK_CALLS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const DELETE_HOURS = Number(process.env.BENCH_DELETE_HOURS ?? 24);
const MIN_FREE_GB = Number(process.env.BENCH_MIN_FREE_GB ?? 8);
const WEEK_MS = 7 * 86_400_000;
const SERVERS = 5;
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 10_000);
const REUSE = process.env.BENCH_REUSE_DATABASE;
const PAUSE_FILE = process.env.BENCH_PAUSE_FILE;
const STOP_AT = process.env.BENCH_STOP_SEEDING_AT ? Date.parse(process.env.BENCH_STOP_SEEDING_AT) : 0;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const gb = (bytes) => `${(bytes / 1e9).toFixed(2)} GB`;
/** Free bytes of the file system PostgreSQL's data lives on (a local server). */
const freeBytes = () => Number(execSync('df -B1 --output=avail /var/lib/postgresql | tail -1').toString().trim());

/** Enterprise: a 90-day raw window, so nothing seeded is past it. */
const seedAccount = (db) => seedBenchAccount(db, { servers: SERVERS, enterprise: true });

/** A database a run before left (BENCH_KEEP_DATABASE=1, or killed): measured as it is, dropped at the end. */
function reused(baseUrl, name) {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => dropDatabase(baseUrl, name) };
}

async function dropDatabase(baseUrl, name) {
  const other = await openDatabase({ databaseUrl: baseUrl });
  await other.query(`drop database if exists ${name} with (force)`);
  await other.close();
}

async function accountOf(db) {
  const [ws] = await db.query('select id, owner_id from workspaces');
  const servers = await db.query('select id from servers where workspace_id = $1 order by name', [ws.id]);
  return { userId: ws.owner_id, workspaceId: ws.id, serverIds: servers.map((s) => s.id) };
}

async function time(fn) {
  const first = performance.now();
  await fn();
  const firstMs = performance.now() - first;
  // A screen that takes seconds is timed fewer times (minutes: once), or the run would not end.
  if (firstMs > SLOW_MS) return { p50: firstMs, p95: firstMs, runs: 1 };
  const runs = firstMs > 2000 ? 3 : RUNS;
  await fn();
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return {
    p50: samples[Math.floor(samples.length * 0.5)],
    p95: samples[Math.min(runs - 1, Math.floor(runs * 0.95))],
    runs,
  };
}

async function measureScreens(db, account, calls) {
  const config = { ...loadConfig({}, { secret: generateSecret(), clientDir: undefined }), retentionIntervalMs: 0 };
  const app = await buildApp({ config, db });
  await app.ready();
  const token = signAccessToken(account.userId, config.secret, (await issueRefreshToken(db, account.userId)).familyId);
  const base = `/api/v1/workspaces/${account.workspaceId}`;
  const call =
    (url, auth = true) =>
    async () => {
      const res = await app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${token}` } : {} });
      if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };
  const { total } = (await call(`${base}/sessions?limit=1`)()).json();
  // A session in the middle of the oldest week: its reads probe every partition's index.
  const [oldest] = await db.query(
    `select id, started_at from sessions where workspace_id = $1 order by started_at limit 1 offset $2`,
    [account.workspaceId, Math.floor(WEEK_CALLS / CALLS_PER_SESSION / 2)],
  );
  const at = encodeURIComponent(new Date(oldest.started_at).toISOString());
  const screens = [
    ['sessions list, first page (50)', `${base}/sessions?limit=50`],
    [`sessions list, last page (offset ${total - 50})`, `${base}/sessions?limit=50&offset=${total - 50}`],
    ['session search: common word', `${base}/sessions?limit=50&q=revenue`],
    ['session search: no match', `${base}/sessions?limit=50&q=zebracorn`],
    ['activity stream page (50)', `${base}/sessions/activity-stream?limit=50`],
    ['one session: page', `${base}/sessions/${oldest.id}`],
    ['one session: replay (first page)', `${base}/sessions/${oldest.id}/replay`],
    ['export of one session (JSON Lines)', `${base}/export?from=${at}&to=${at}&include=sessions`],
  ];
  const baseline = await time(call('/api/v1/config', false));
  const rows = [];
  console.log(
    `\n${calls.toLocaleString('en')} calls, ${total.toLocaleString('en')} sessions — baseline GET /api/v1/config p50 ${baseline.p50.toFixed(2)} ms, p95 ${baseline.p95.toFixed(2)} ms (load ${load()})`,
  );
  for (const [name, url] of screens) {
    const res = await call(url)();
    const t = await time(call(url));
    const again = await time(call('/api/v1/config', false));
    const row = { name, ...t, bytes: res.rawPayload.length, configP50: again.p50, load: load() };
    rows.push(row);
    console.log(
      `${name.padEnd(44)} p50 ${t.p50.toFixed(1).padStart(8)} ms  p95 ${t.p95.toFixed(1).padStart(8)} ms (${t.runs} runs)  ×config(p50) ${(t.p50 / baseline.p50).toFixed(0).padStart(6)}  ${String(row.bytes).padStart(8)} B  config after p50 ${again.p50.toFixed(2)} ms  load ${row.load}`,
    );
  }
  await app.close();
  return rows;
}

async function measureExpiry(db, account) {
  const [{ first }] = await db.query(`select min(started_at) as first from tool_calls`);
  const cutoff = new Date(new Date(first).getTime() + DELETE_HOURS * 3_600_000);
  const before = await rawSizes(db);
  let start = performance.now();
  const counts = await expireRawData(db, account.workspaceId, cutoff);
  const deleteMs = performance.now() - start;
  const afterDelete = await rawSizes(db);
  console.log(
    `\nexpiry, row deletes of the oldest ${DELETE_HOURS} h (expireRawData, batches of 5,000): ${counts.toolCalls.toLocaleString('en')} calls, ${counts.messages.toLocaleString('en')} messages, ${counts.sessions.toLocaleString('en')} sessions in ${(deleteMs / 1000).toFixed(1)} s (${((counts.toolCalls / deleteMs) * 1000).toFixed(0)} calls/s); raw tables ${gb(before.tool_calls + before.messages + before.sessions)} → ${gb(afterDelete.tool_calls + afterDelete.messages + afterDelete.sessions)} (load ${load()})`,
  );
  const oldestWeekEnd = new Date(weekStart(new Date(first).getTime()) + WEEK_MS);
  start = performance.now();
  const dropped = await dropPartitionsBefore(db, oldestWeekEnd);
  const dropMs = performance.now() - start;
  const afterDrop = await rawSizes(db);
  console.log(
    `expiry, dropping the oldest week (dropPartitionsBefore): ${dropped.join(', ')} in ${(dropMs / 1000).toFixed(2)} s; raw tables ${gb(afterDelete.tool_calls + afterDelete.messages + afterDelete.sessions)} → ${gb(afterDrop.tool_calls + afterDrop.messages + afterDrop.sessions)} (load ${load()})`,
  );
  // The sessions of the dropped week stay until the row deletes reach them (sessions are not partitioned).
  start = performance.now();
  const sessions = await expireRawData(db, account.workspaceId, oldestWeekEnd);
  console.log(
    `  then its ${sessions.sessions.toLocaleString('en')} sessions (row deletes, their calls already gone) in ${((performance.now() - start) / 1000).toFixed(1)} s (load ${load()})`,
  );
}

async function main() {
  const baseUrl = process.env.BENCH_DATABASE_URL;
  if (!baseUrl) throw new Error('BENCH_DATABASE_URL=postgres://… is required (this bench is about PostgreSQL)');
  const scratch = REUSE ? reused(baseUrl, REUSE) : await createScratchDatabase(baseUrl, 'toolscope_bench_raw');
  const db = await openDatabase({ databaseUrl: scratch.url });
  const [{ jit }] = await db.query('show jit');
  console.log(
    `raw-table scale bench — jit ${jit}, database ${scratch.name}, ${os.cpus().length} cpus, node ${process.version}, load ${load()}`,
  );
  try {
    if (REUSE) {
      const account = await accountOf(db);
      const [{ calls }] = await db.query(
        `select sum(c.reltuples)::float8 as calls from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'tool_calls'::regclass`,
      );
      await measureScreens(db, account, Math.round(calls));
      await measureExpiry(db, account);
      return;
    }
    await migrate(db);
    await dropBeforePartitions(db);
    const account = await seedAccount(db);
    const now = Date.now();
    let calls = 0;
    let week = 0;
    let lastWeekMs = 0;
    for (const target of STAGES) {
      let stopped = false;
      while (calls < target) {
        const weekMs = weekStart(now) - week * WEEK_MS;
        const weekCalls = Math.min(WEEK_CALLS, target - calls);
        // Another bench that needs the machine alone (bench-ingest.mjs) pauses the seeding between weeks.
        while (PAUSE_FILE && fs.existsSync(PAUSE_FILE)) await new Promise((r) => setTimeout(r, 5000));
        if (STOP_AT && Date.now() + lastWeekMs > STOP_AT) {
          console.log(
            `time: the next week would end after BENCH_STOP_SEEDING_AT: seeding stops at ${calls.toLocaleString('en')} calls`,
          );
          stopped = true;
          break;
        }
        const perCall = calls > 0 ? (await rawSizes(db)).database / calls : 1500;
        if (freeBytes() - perCall * weekCalls < MIN_FREE_GB * 1e9) {
          console.log(
            `disk: ${gb(freeBytes())} free, a week of ${weekCalls.toLocaleString('en')} calls needs ~${gb(perCall * weekCalls)}: seeding stops at ${calls.toLocaleString('en')} calls`,
          );
          stopped = true;
          break;
        }
        const start = performance.now();
        const seeded = await seedWeek(db, {
          ...account,
          weekMs,
          endMs: week === 0 ? now - 60_000 : weekMs + WEEK_MS,
          calls: weekCalls,
        });
        calls += weekCalls;
        week += 1;
        lastWeekMs = performance.now() - start;
        const sizes = await rawSizes(db);
        console.log(
          `seeded week ${new Date(weekMs).toISOString().slice(0, 10)}: ${weekCalls.toLocaleString('en')} calls, ${seeded.messages.toLocaleString('en')} messages, ${seeded.sessions.toLocaleString('en')} sessions in ${((performance.now() - start) / 1000).toFixed(0)} s (${Object.entries(
            seeded.times,
          )
            .map(([k, v]) => `${k} ${v.toFixed(0)} s`)
            .join(
              ', ',
            )}); now ${calls.toLocaleString('en')} calls, raw tables ${gb(sizes.tool_calls + sizes.messages + sizes.sessions)} (tool_calls ${gb(sizes.tool_calls)}, messages ${gb(sizes.messages)}, sessions ${gb(sizes.sessions)}) = ${((sizes.tool_calls + sizes.messages + sizes.sessions) / calls).toFixed(0)} B per call; disk free ${gb(freeBytes())} (load ${load()})`,
        );
      }
      await measureScreens(db, account, calls);
      if (stopped) break;
    }
    await measureExpiry(db, account);
  } finally {
    await db.close();
    if (process.env.BENCH_KEEP_DATABASE) console.log(`kept database ${scratch.name}`);
    else await scratch.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
