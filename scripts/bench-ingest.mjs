#!/usr/bin/env node
// `node scripts/bench-ingest.mjs` (BENCH_DATABASE_URL=postgres://… required; part of `npm run bench`
// when it is set): sustained ingest into PostgreSQL with retention running (issue 33 item 5,
// docs/scaling.md "Measured limits of one database").
// Phase 1: BENCH_CONCURRENCY lean clients (16) call tools/call (~1 KB result) as fast as they can
// for BENCH_SECONDS (600) through the real app — Toolscope in its own process, recording to a
// scratch PostgreSQL database with its journal on and the retention job running every
// BENCH_RETENTION_MS (60 s) — against an official-SDK upstream in a third process (scripts/lib/mcpUpstream.mjs, the
// upstream of scripts/bench-proxy.mjs). Every BENCH_SAMPLE_S (10 s) it samples the calls answered, the
// recorder's backlog (rows queued, the oldest one's age, the journal's bytes), the rows written and
// the raw tables' bytes; it prints them per minute, then bytes per stored call and any call lost.
// Phase 2 (scripts/lib/expirySimulation.mjs): BENCH_SIM_DAYS (28) simulated days written by the
// recorder's batch writer at phase 1's rate, a day every BENCH_SIM_DAY_S (10) seconds, with the
// real expiry job at the end of each day and a 7-day raw window: the database must go flat.
// BENCH_PAUSE_FILE: a file made while this runs (another bench pauses on it, e.g. bench-raw-scale.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

import { requireSource as require } from './lib/tsSources.mjs';
import { forkChild } from './lib/ipcChild.mjs';
import { rawBytes, simulateExpiry } from './lib/expirySimulation.mjs';
const { Agent } = require('undici');
const { createScratchDatabase } = require('../test/server/helpers/scratchDatabase.ts');
const { openDatabase } = require('../src/server/db/database.ts');
const { migrate } = require('../src/server/db/migrate.ts');
const { buildApp } = require('../src/server/app.ts');
const { loadConfig, generateSecret } = require('../src/server/config.ts');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SAMPLE_S = Number(process.env.BENCH_SAMPLE_S ?? 10);
const RETENTION_MS = Number(process.env.BENCH_RETENTION_MS ?? 60_000);
const SIM_DAYS = Number(process.env.BENCH_SIM_DAYS ?? 28);
const SIM_DAY_S = Number(process.env.BENCH_SIM_DAY_S ?? 10);
const DIRECT_S = Number(process.env.BENCH_DIRECT_S ?? 15);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Toolscope in its own process, recording to a scratch PostgreSQL database; answers 'sample', 'drain', 'exit'. */
async function toolscopeChild() {
  const scratch = await createScratchDatabase(process.env.BENCH_DATABASE_URL, 'toolscope_bench_ingest');
  const db = await openDatabase({ databaseUrl: scratch.url });
  await migrate(db);
  const journalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-bench-journal-'));
  const config = loadConfig(
    { TOOLSCOPE_LOG_LEVEL: 'silent', TOOLSCOPE_RETENTION_INTERVAL_MS: String(RETENTION_MS) },
    { secret: generateSecret(), clientDir: undefined, healthIntervalMs: 3_600_000, journalDir },
  );
  const app = await buildApp({ config, db });
  // The retention job runs on its own timer; its runs are timed here.
  const expiryRuns = [];
  const runOnce = app.retention.runOnce.bind(app.retention);
  app.retention.runOnce = (now) => {
    const start = performance.now();
    return runOnce(now).then((counts) => {
      expiryRuns.push(performance.now() - start);
      return counts;
    });
  };
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const [user] = await db.query(
    "insert into users (email, password_hash, first_name, last_name) values ('bench@example.com', 'x', 'B', 'B') returning id",
  );
  // Enterprise: no monthly quota of agent calls.
  await db.query("insert into subscriptions (user_id, plan) values ($1, 'enterprise')", [user.id]);
  const [ws] = await db.query("insert into workspaces (name, owner_id) values ('Bench', $1) returning id", [user.id]);
  const key = 'bench-ingest-key-000000000000000000';
  await db.query('insert into servers (workspace_id, name, url, proxy_key) values ($1, $2, $3, $4)', [
    ws.id,
    'bench',
    process.env.BENCH_UPSTREAM_URL,
    key,
  ]);
  const close = async () => {
    await app.close();
    await db.close();
    await scratch.drop();
    fs.rmSync(journalDir, { recursive: true, force: true });
  };
  process.on('message', async (message) => {
    if (message.type === 'sample') {
      const stats = app.recorder.stats();
      const sizes = await rawBytes(db);
      process.send({ type: 'sample', stats, sizes, expiryRuns: expiryRuns.splice(0) });
    } else if (message.type === 'drain') {
      const backlog = app.recorder.stats().queuedRows;
      const start = performance.now();
      await app.recorder.flush();
      const [{ stored }] = await db.query('select count(*)::int as stored from tool_calls');
      const sizes = await rawBytes(db);
      process.send({
        type: 'drained',
        backlog,
        ms: performance.now() - start,
        stored,
        sizes,
        stats: app.recorder.stats(),
      });
    } else if (message.type === 'exit') {
      await close();
      process.exit(0);
    }
  });
  process.once('disconnect', () => close().finally(() => process.exit(1)));
  process.send({
    type: 'ready',
    url: new URL(`/mcp/${key}`, `http://127.0.0.1:${app.server.address().port}`).toString(),
  });
}

// ---- lean MCP clients (undici): initialize once, then tools/call over keep-alive ----
const agent = new Agent({ connections: 256, keepAliveTimeout: 60_000 });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function post(url, body, headers = {}) {
  const res = await agent.request({
    origin: url.origin,
    path: url.pathname,
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200 && res.statusCode !== 202) throw new Error(`${res.statusCode} ${text.slice(0, 200)}`);
  return { headers: res.headers, text };
}
async function openSession(url) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-client', version: '1.0.0' } },
  });
  const headers = { 'mcp-session-id': init.headers['mcp-session-id'], 'mcp-protocol-version': '2025-06-18' };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

function spawnUpstream() {
  const script = fileURLToPath(new URL('./lib/mcpUpstream.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve({ url: chunk.toString().trim(), close: () => child.kill('SIGTERM') }));
    child.once('exit', (code) => reject(new Error(`upstream exited (${code})`)));
  });
}

/** Calls per second straight to the upstream for `seconds` (no proxy): the machine's state, as a baseline. */
async function directRate(url, seconds) {
  const sessions = await Promise.all(Array.from({ length: CONCURRENCY }, () => openSession(url)));
  let answered = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    sessions.map(async (headers) => {
      for (let n = 1; performance.now() < end; n += 1) {
        await post(
          url,
          { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'payload', arguments: { n } } },
          headers,
        );
        answered += 1;
      }
    }),
  );
  return answered / seconds;
}

async function sustainedIngest(toolscope, url) {
  const sessions = await Promise.all(Array.from({ length: CONCURRENCY }, () => openSession(url)));
  let answered = 0;
  let failed = 0;
  const end = performance.now() + SECONDS * 1000;
  const worker = async (headers) => {
    for (let n = 1; performance.now() < end; n += 1) {
      try {
        await post(
          url,
          { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'payload', arguments: { n } } },
          headers,
        );
        answered += 1;
      } catch {
        failed += 1;
      }
    }
  };
  const samples = [];
  const sampler = (async () => {
    const start = performance.now();
    let last = 0;
    while (performance.now() < end) {
      await new Promise((r) => setTimeout(r, SAMPLE_S * 1000));
      const s = await toolscope.ask({ type: 'sample' }, 'sample');
      const t = (performance.now() - start) / 1000;
      samples.push({ t, answered, calls: answered - last, ...s, load: load() });
      last = answered;
    }
  })();
  await Promise.all(sessions.map(worker));
  await sampler;
  return { samples, answered, failed };
}

function printMinutes(samples) {
  console.log(
    'minute | calls/s | rows written/s | backlog rows (max / at end) | oldest queued ms (max) | journal KB (max) | raw tables MB | expiry runs (ms) | load',
  );
  let previousWritten = 0;
  for (let minute = 1; minute <= Math.ceil(samples.at(-1).t / 60); minute += 1) {
    const inMinute = samples.filter((s) => s.t > (minute - 1) * 60 && s.t <= minute * 60 + 0.5);
    if (inMinute.length === 0) continue;
    const seconds = inMinute.at(-1).t - (minute === 1 ? 0 : samples[samples.indexOf(inMinute[0]) - 1].t);
    const calls = inMinute.reduce((sum, s) => sum + s.calls, 0);
    const written = inMinute.at(-1).stats.written.toolCalls;
    const behind = inMinute.map((s) => s.stats.behind);
    const max = (values) => Math.max(...values.map((v) => v ?? 0));
    console.log(
      `${String(minute).padStart(6)} | ${(calls / seconds).toFixed(0).padStart(7)} | ${((written - previousWritten) / seconds).toFixed(0).padStart(14)} | ${`${max(behind.map((b) => b.queuedRows))} / ${behind.at(-1).queuedRows}`.padStart(27)} | ${max(
        behind.map((b) => b.oldestQueuedMs),
      )
        .toFixed(0)
        .padStart(
          22,
        )} | ${(max(behind.map((b) => b.journalBytes)) / 1024).toFixed(0).padStart(16)} | ${(inMinute.at(-1).sizes.raw / 1e6).toFixed(0).padStart(13)} | ${(inMinute.flatMap((s) => s.expiryRuns.map((ms) => ms.toFixed(0))).join(' ') || '-').padEnd(16)} | ${inMinute.at(-1).load}`,
    );
    previousWritten = written;
  }
}

async function main() {
  if (!process.env.BENCH_DATABASE_URL) {
    console.log('skipped: BENCH_DATABASE_URL=postgres://… is not set (this bench is about PostgreSQL)');
    return;
  }
  if (process.env.BENCH_PAUSE_FILE) fs.writeFileSync(process.env.BENCH_PAUSE_FILE, 'bench-ingest');
  const upstream = await spawnUpstream();
  const toolscope = forkChild(fileURLToPath(import.meta.url), ['--toolscope'], {
    env: { BENCH_UPSTREAM_URL: upstream.url },
  });
  try {
    const { url } = await toolscope.ready;
    console.log(
      `ingest bench: ${CONCURRENCY} clients, ${SECONDS} s, tools/call with a ~1 KB result, recording to PostgreSQL (journal on, retention job every ${RETENTION_MS / 1000} s), ${os.cpus().length} cpus, node ${process.version}, load ${load()}`,
    );
    const directBefore = await directRate(new URL(upstream.url), DIRECT_S);
    console.log(
      `baseline: clients → upstream directly, ${DIRECT_S} s: ${directBefore.toFixed(0)} calls/s (load ${load()})`,
    );
    const { samples, answered, failed } = await sustainedIngest(toolscope, new URL(url));
    const drained = await toolscope.ask({ type: 'drain' }, 'drained');
    printMinutes(samples);
    const rate = answered / SECONDS;
    console.log(
      `phase 1: ${answered.toLocaleString('en')} calls answered (${rate.toFixed(0)}/s over ${SECONDS} s), ${failed} failed; backlog when the load stopped ${drained.backlog} rows, written ${drained.ms.toFixed(0)} ms later; stored ${drained.stored.toLocaleString('en')} tool calls (lost ${answered - drained.stored}, dropped by the queue ${drained.stats.dropped.toolCalls}); raw tables ${(drained.sizes.raw / 1e6).toFixed(0)} MB = ${(drained.sizes.raw / drained.stored).toFixed(0)} B per stored call (database ${(drained.sizes.database / 1e6).toFixed(0)} MB); load ${load()}`,
    );
    const directAfter = await directRate(new URL(upstream.url), DIRECT_S);
    console.log(
      `baseline after: ${directAfter.toFixed(0)} calls/s directly (load ${load()}); proxy recording ÷ direct = ${(rate / ((directBefore + directAfter) / 2)).toFixed(2)}×`,
    );
    await toolscope.exit();
    upstream.close();
    await agent.close();
    await simulateExpiry({
      baseUrl: process.env.BENCH_DATABASE_URL,
      rate,
      days: SIM_DAYS,
      callsPerDay: Math.max(250, Math.round((rate * SIM_DAY_S) / 250) * 250),
      windowDays: 7,
    });
  } finally {
    if (process.env.BENCH_PAUSE_FILE) fs.rmSync(process.env.BENCH_PAUSE_FILE, { force: true });
  }
}

if (process.argv[2] === '--toolscope') {
  toolscopeChild().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
