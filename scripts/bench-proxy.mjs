#!/usr/bin/env node
// `npm run bench:proxy` (part of `npm run bench`): what the MCP proxy costs. A tools/call with a
// ~1 KB result against an official-SDK MCP server (Streamable HTTP, JSON responses, one session
// per client), in one run:
//   direct            clients → upstream
//   proxy, no record  clients → Toolscope /mcp/{key} (recorder switched off) → upstream
//   proxy, recording  clients → Toolscope /mcp/{key} (recorder on, PGlite on disk) → upstream
//   bare Node proxy   clients → a minimal Node.js reverse proxy (HTTP server + undici) → upstream
// At 1 client the table's "proxy, recording" row is the interleaved one; "(alone)" is the recording
// proxy called by a client of its own, whose p99 the machine's stalls in that phase decide.
// Each round measures throughput at 16 clients (direct, the bare proxy, then the two proxy modes back to back, in
// an order swapped every round) and latency at 1 client (the proxy without recording alone, then
// direct and recording-proxy calls interleaved call by call). The machine is shared and noisy, so
// every ratio is taken within a round and the verdict is the median over the rounds; the table
// shows each cell's median. Also printed: Toolscope's own CPU per call (all its threads: the
// proxy's and the database worker's), the recorder's backlog when a recording phase stopped (and
// how long it took to write), and how many recorded calls were lost (calls sent through the
// recording proxy minus tool_calls rows stored). Last, issue 39's verdict: CPU per call of each
// proxy mode ÷ the bare Node proxy's in the same round (the recording figure includes writing what
// was still queued when the load stopped; on PostgreSQL the CPU of the backends serving the bench's
// database is printed beside it), and the recording proxy's added p50 at 1 client over the bare proxy's.
// The clients are lean HTTP (undici) so the client's own cost does not hide the proxy's; the
// upstream and Toolscope each run in a child process, so neither shares a thread with the clients.
// Database: PGlite with a data folder in the temp directory, in its worker thread, as the server runs
// it (BENCH_PGLITE_MEMORY=1: in memory, as the tests run it; BENCH_PGLITE_MAIN_THREAD=1
// runs it on the proxy's thread for comparison), or PostgreSQL with BENCH_DATABASE_URL=postgres://…
// (a scratch database is created and dropped).
// Options (env): BENCH_SINGLE_CALLS (calls per side at 1 client, default 2000), BENCH_CONCURRENT_CALLS
// (default 20000), BENCH_CONCURRENCY (default 16, issue 19's figure), BENCH_ROUNDS (default 5),
// BENCH_PGLITE_NICE (nice of PGlite's thread; default: the server's TOOLSCOPE_PGLITE_NICE),
// BENCH_THREADS=1 (also print Toolscope's CPU per call for each of its threads, Linux),
// BENCH_TOOLSCOPE_NODE_ARGS (extra node flags for the Toolscope process, e.g. --cpu-prof),
// TOOLSCOPE_RECORDER_FLUSH_MS (the recorder's flush interval, as the server reads it; default 50),
// BENCH_JOURNAL=off (no recording journal; by default it is on, in a temporary folder),
// BENCH_ONLY=no-record|recording (one proxy phase alone, for a profile), BENCH_INTERLEAVE=1 (the
// added latency at 1 client of each proxy mode, each interleaved with direct calls, nothing else),
// BENCH_ALLOC=1 (bytes allocated per call by the bare proxy and both proxy modes, no timing; BENCH_ALLOC_TOP: how many frames, 15),
// BENCH_SETTLE=0 (PGlite: start the rounds at once instead of after the first table maintenance).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

import { requireSource as require } from './lib/tsSources.mjs';
import { forkChild, processCpuMicros, toolscopeNodeArgs } from './lib/ipcChild.mjs';
import { answerAllocationCommands, startAllocationSampling } from './lib/allocationSampler.mjs';
import { trackDatabaseBackends } from './lib/postgresBackends.mjs';
const { Agent } = require('undici');
const { createScratchDatabase } = require('../test/server/helpers/scratchDatabase.ts');
const { openDatabase } = require('../src/server/db/database.ts');
const { migrate } = require('../src/server/db/migrate.ts');
const { buildApp } = require('../src/server/app.ts');
const { loadConfig, generateSecret } = require('../src/server/config.ts');

const SINGLE_CALLS = Number(process.env.BENCH_SINGLE_CALLS ?? 2000);
const onPostgres = Boolean(process.env.BENCH_DATABASE_URL);

const CONCURRENT_CALLS = Number(process.env.BENCH_CONCURRENT_CALLS ?? 20000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));

// ---- the floor: a bare Node.js reverse proxy (no validation, recording, quota or keys) ----
// Node's HTTP server in, undici out — the same stack as Toolscope's proxy — so "bare proxy / direct"
// is what a second hop of this stack costs on this machine, and "Toolscope / bare proxy" what
// Toolscope's own work costs on top of it.
async function startBareProxy(upstreamUrl) {
  const upstream = new URL(upstreamUrl);
  const pool = new Agent({ connections: 256, keepAliveTimeout: 60_000 });
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    try {
      const answer = await pool.request({
        origin: upstream.origin,
        path: upstream.pathname,
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : null,
      });
      const out = {};
      for (const [k, v] of Object.entries(answer.headers))
        if (k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') out[k] = v;
      res.writeHead(answer.statusCode, out);
      for await (const c of answer.body) res.write(c);
      res.end();
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${server.address().port}/mcp`;
}

/** The bare proxy in its own process (as Toolscope runs in its own): prints its URL. */
async function spawnBareProxy(upstreamUrl) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--bare-proxy', upstreamUrl], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bare proxy exited (${code})`)));
  });
  return {
    url,
    pid: child.pid,
    /** BENCH_ALLOC: 'alloc-start' or 'alloc-stop' (answers with the sampler's result). */
    ask: (command) =>
      new Promise((resolve) => {
        child.stdout.once('data', (chunk) => resolve(JSON.parse(chunk.toString())));
        child.stdin.write(`${command}\n`);
      }),
    close: () =>
      new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      }),
  };
}

/** The upstream in its own process: `node bench-proxy.mjs --upstream` prints its URL. */
async function spawnUpstream() {
  // stdin is a pipe only so the upstream notices (end of stdin) when the bench itself dies.
  // The official-SDK upstream of the benches (scripts/lib/mcpUpstream.mjs).
  const child = spawn(process.execPath, [fileURLToPath(new URL('./lib/mcpUpstream.mjs', import.meta.url))], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`upstream exited (${code})`)));
  });
  return {
    url,
    close: () =>
      new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      }),
  };
}

async function openBenchDatabase() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) {
    const onCallingThread = process.env.BENCH_PGLITE_MAIN_THREAD === '1';
    // The server's default nice for PGlite's thread (TOOLSCOPE_PGLITE_NICE), unless BENCH_PGLITE_NICE says otherwise.
    const nice = Number(process.env.BENCH_PGLITE_NICE ?? loadConfig({}, { secret: 'x'.repeat(32) }).pgliteNice);
    // A data folder on disk, as `npm start` runs it; BENCH_PGLITE_MEMORY=1 keeps it in memory (as
    // the tests do: Emscripten's in-memory files grow by copying, which costs more as tables grow).
    const inMemory = process.env.BENCH_PGLITE_MEMORY === '1';
    const dataDir = inMemory ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-bench-'));
    const engine = `PGlite ${inMemory ? 'in memory' : 'on disk'}, ${onCallingThread ? "on the proxy's thread (BENCH_PGLITE_MAIN_THREAD=1)" : `in its worker thread (nice ${nice})`}`;
    const drop = async () => dataDir && fs.rmSync(dataDir, { recursive: true, force: true });
    return {
      db: await openDatabase({ pgliteOnCallingThread: onCallingThread, pgliteNice: nice, dataDir }),
      engine,
      drop,
    };
  }
  const scratch = await createScratchDatabase(base, 'toolscope_bench_proxy');
  return {
    db: await openDatabase({ databaseUrl: scratch.url }),
    engine: 'PostgreSQL',
    name: scratch.name,
    drop: scratch.drop,
  };
}

// ---- a lean MCP client: initialize once, then tools/call over a keep-alive connection ----
const clientAgent = new Agent({ connections: 256, keepAliveTimeout: 60_000 });
const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(url, body, headers = {}) {
  const res = await clientAgent.request({
    origin: url.origin,
    path: url.pathname,
    method: 'POST',
    headers: { ...BASE_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

async function openSession(url) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-client', version: '1.0.0' } },
  });
  const sid = init.headers['mcp-session-id'];
  const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  let id = 1;
  return async () => {
    const n = id++;
    const res = await post(
      url,
      { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'payload', arguments: { n } } },
      headers,
    );
    if (res.status !== 200 || !res.text.includes(`"${n}:x`))
      throw new Error(`bad answer ${res.status}: ${res.text.slice(0, 200)}`);
  };
}

function percentiles(latencies) {
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: pct(50), p90: pct(90), p99: pct(99) };
}

/** `clients` sessions calling as fast as they can until `totalCalls` are done: latency and calls/s. */
async function measure(url, clients, totalCalls) {
  const sessions = await Promise.all(Array.from({ length: clients }, () => openSession(url)));
  // Warm-up: JIT, pools, the proxy's upstream cache.
  await Promise.all(
    sessions.map(async (call) => {
      for (let i = 0; i < 20; i++) await call();
    }),
  );
  const latencies = new Float64Array(totalCalls);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    sessions.map(async (call) => {
      for (;;) {
        const i = next++;
        if (i >= totalCalls) return;
        const t0 = performance.now();
        await call();
        latencies[i] = performance.now() - t0;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...percentiles(latencies), rps: totalCalls / seconds, calls: totalCalls + clients * 20 };
}

/**
 * One client alternating between two URLs call by call (a, b, a, b…): each side's latency under
 * the same moments of the shared machine, so a stall of the machine lands on both sides alike
 * instead of deciding one side's p99 (rounds measured one after the other differed by 4 ms at p99
 * on direct calls alone). Returns each side's percentiles.
 */
async function measureInterleaved(urlA, urlB, callsEach) {
  const [a, b] = await Promise.all([openSession(urlA), openSession(urlB)]);
  for (let i = 0; i < 20; i++) {
    await a();
    await b();
  }
  const latencies = [new Float64Array(callsEach), new Float64Array(callsEach)];
  const calls = [a, b];
  for (let i = 0; i < callsEach; i++) {
    for (let side = 0; side < 2; side++) {
      const t0 = performance.now();
      await calls[side]();
      latencies[side][i] = performance.now() - t0;
    }
  }
  return latencies.map((side) => ({ ...percentiles(side), calls: callsEach + 20 }));
}

// ---- Toolscope ----
async function startToolscope(upstreamUrl) {
  const database = await openBenchDatabase();
  const db = database.db;
  await migrate(db);
  // The recording journal is on, as the server runs it, in a folder of this run (BENCH_JOURNAL=off: without).
  const journalDir =
    process.env.BENCH_JOURNAL === 'off'
      ? undefined
      : fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-bench-journal-'));
  if (journalDir) process.once('exit', () => fs.rmSync(journalDir, { recursive: true, force: true }));
  const config = loadConfig(
    {
      TOOLSCOPE_LOG_LEVEL: 'silent',
      ...(process.env.TOOLSCOPE_RECORDER_FLUSH_MS
        ? { TOOLSCOPE_RECORDER_FLUSH_MS: process.env.TOOLSCOPE_RECORDER_FLUSH_MS }
        : {}),
    },
    { secret: generateSecret(), clientDir: undefined, healthIntervalMs: 3_600_000, journalDir },
  );
  const app = await buildApp({ config, db });
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const [user] = await db.query(
    "insert into users (email, password_hash, first_name, last_name) values ('bench@example.com', 'x', 'B', 'B') returning id",
  );
  // Enterprise: no monthly agent-call quota (the starter plan's 1,000 calls would end the bench).
  await db.query("insert into subscriptions (user_id, plan) values ($1, 'enterprise')", [user.id]);
  const [ws] = await db.query("insert into workspaces (name, owner_id) values ('Bench', $1) returning id", [user.id]);
  const register = async (key) => {
    const [server] = await db.query(
      'insert into servers (workspace_id, name, url, proxy_key) values ($1, $2, $3, $4) returning id',
      [ws.id, key, upstreamUrl, key],
    );
    return { serverId: server.id, url: new URL(`/mcp/${key}`, base) };
  };
  return { app, db, database, register };
}

const fmt = (ms) => `${ms.toFixed(3)} ms`;

function threadTicks() {
  const fs = require('node:fs');
  const out = {};
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out[`${comm}#${tid}`] = Number(fields[11]) + Number(fields[12]);
    } catch {
      // The thread ended between the listing and the read: it has nothing more to count.
    }
  }
  return out;
}

/** Toolscope in its own process, driven over IPC: setRecording, count, exit. */
async function toolscopeChild() {
  const toolscope = await startToolscope(process.env.BENCH_UPSTREAM_URL);
  const recorded = await toolscope.register('bench-recording-key-0000000000000');
  const plain = await toolscope.register('bench-plain-key-00000000000000000');
  const recorder = toolscope.app.recorder;
  let allocation;
  process.on('message', async (message) => {
    if (message.type === 'setRecording') {
      recorder.setEnabled(message.enabled);
      process.send({ type: 'ok' });
    } else if (message.type === 'drain') {
      const backlog = recorder.stats().queuedRows;
      const started = performance.now();
      await recorder.flush();
      process.send({ type: 'drained', backlog, ms: performance.now() - started });
    } else if (message.type === 'allocStart') {
      allocation = await startAllocationSampling();
      process.send({ type: 'ok' });
    } else if (message.type === 'allocStop') {
      process.send({ type: 'alloc', ...(await allocation.stop()) });
    } else if (message.type === 'cpu') {
      process.send({ type: 'cpu', usage: process.cpuUsage(), threads: threadTicks() });
    } else if (message.type === 'count') {
      recorder.setEnabled(true);
      await recorder.flush();
      const [{ stored }] = await toolscope.db.query(
        'select count(*)::int as stored from tool_calls where server_id = $1',
        [recorded.serverId],
      );
      process.send({ type: 'count', stored, stats: recorder.stats(), engine: toolscope.database.engine });
    } else if (message.type === 'exit') {
      await toolscope.app.close();
      await toolscope.db.close();
      await toolscope.database.drop();
      process.exit(0);
    }
  });
  // The bench died without saying 'exit': drop the scratch database anyway.
  process.once('disconnect', () => {
    toolscope.app
      .close()
      .then(() => toolscope.db.close())
      .then(() => toolscope.database.drop())
      .finally(() => process.exit(1));
  });
  process.send({
    type: 'ready',
    recordedUrl: recorded.url.toString(),
    plainUrl: plain.url.toString(),
    database: toolscope.database.name,
  });
}

function spawnToolscope(upstreamUrl) {
  return forkChild(fileURLToPath(import.meta.url), ['--toolscope'], {
    env: { BENCH_UPSTREAM_URL: upstreamUrl },
    extraNodeArgs: toolscopeNodeArgs(),
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * BENCH_ALLOC=1: bytes allocated on the main thread per call (scripts/lib/allocationSampler.mjs) by
 * the bare Node proxy and by Toolscope without and with recording, at 16 clients, each after a
 * warm-up, then the ratios to the bare proxy and the frames that allocate most in Toolscope. The
 * sampler costs CPU: this mode prints no timing.
 */
async function measureAllocation({ bareProxy, toolscope, setRecording, bare, plain, recorded }) {
  const rows = [];
  for (const [name, recording, url] of [
    ['bare Node proxy', null, bare],
    ['proxy, no record', false, plain],
    ['proxy, recording', true, recorded],
  ]) {
    if (recording !== null) await setRecording(recording);
    await measure(url, CONCURRENCY, 1000);
    if (recording === null) await bareProxy.ask('alloc-start');
    else await toolscope.ask({ type: 'allocStart' }, 'ok');
    const result = await measure(url, CONCURRENCY, CONCURRENT_CALLS);
    const sampled =
      recording === null ? await bareProxy.ask('alloc-stop') : await toolscope.ask({ type: 'allocStop' }, 'alloc');
    rows.push({ name, perCall: sampled.totalBytes / result.calls, top: sampled.top, calls: result.calls });
  }
  const floor = rows[0].perCall;
  for (const row of rows)
    console.log(
      `${row.name.padEnd(18)} ${(row.perCall / 1024).toFixed(1).padStart(6)} KiB allocated per call (main thread), ${(row.perCall / floor).toFixed(2)}× the bare proxy's`,
    );
  for (const row of rows.slice(1)) {
    console.log(`${row.name}: the frames that allocate most (self, bytes per call)`);
    for (const [where, bytes] of row.top) console.log(`  ${(bytes / row.calls).toFixed(0).padStart(6)}  ${where}`);
  }
}

async function main() {
  const upstream = await spawnUpstream();
  const toolscope = spawnToolscope(upstream.url);
  const { recordedUrl, plainUrl, database } = await toolscope.ready;
  const readyAt = performance.now();
  // PostgreSQL: the CPU of the backends serving the bench's own database (other sessions' suites share the server).
  const backends = onPostgres ? trackDatabaseBackends(database) : null;
  const postgresCpuMicros = () => backends?.micros() ?? Number.NaN;
  const bareProxy = await spawnBareProxy(upstream.url);
  const bare = new URL(bareProxy.url);
  const direct = new URL(upstream.url);
  const plain = new URL(plainUrl);
  const recorded = new URL(recordedUrl);
  const one = '1 client';
  const many = `${CONCURRENCY} clients`;
  let sentThroughRecording = 0;
  const setRecording = (enabled) => toolscope.ask({ type: 'setRecording', enabled }, 'ok');
  /** Every round's result per cell (mode × clients); the table shows their medians. */
  const cells = {};
  const keep = (name, label, result) => (cells[`${name}|${label}`] ??= []).push(result);

  /**
   * Runs `load` against the proxy with recording on or off, and adds Toolscope's own CPU per proxied
   * call (all its threads: the proxy's and the database worker's) and, when recording, the
   * recorder's backlog as the load stopped and how long it took to write.
   */
  async function proxyPhase(title, recording, proxiedCalls, load) {
    await setRecording(recording);
    const before = await toolscope.ask({ type: 'cpu' }, 'cpu');
    const postgresBefore = postgresCpuMicros();
    const result = await load();
    const after = await toolscope.ask({ type: 'cpu' }, 'cpu');
    const calls = proxiedCalls(result);
    const cpuPerCall = (after.usage.user - before.usage.user + after.usage.system - before.usage.system) / calls;
    if (process.env.BENCH_THREADS === '1') {
      const rows = Object.entries(after.threads)
        .map(([k, v]) => [k, ((v - (before.threads[k] ?? 0)) * 10_000) / calls])
        .filter(([, v]) => v > 0)
        .sort((a, b) => b[1] - a[1]);
      console.log(title, rows.map(([k, v]) => `${k}=${v.toFixed(0)}µs`).join(' '));
    }
    let drained;
    let written = after;
    if (recording) {
      sentThroughRecording += calls;
      drained = await toolscope.ask({ type: 'drain' }, 'drained');
      // The rows still queued when the load stopped are written now: their CPU is the calls' too.
      written = await toolscope.ask({ type: 'cpu' }, 'cpu');
    }
    const cpuWithWrite = (written.usage.user - before.usage.user + written.usage.system - before.usage.system) / calls;
    const postgresPerCall = (postgresCpuMicros() - postgresBefore) / calls;
    return { result, cpuPerCall, cpuWithWrite, postgresPerCall, backlog: drained?.backlog, drainMs: drained?.ms };
  }

  // BENCH_ONLY=no-record|recording (with BENCH_CONCURRENCY): one proxy phase and nothing else, so
  // that a profile (BENCH_TOOLSCOPE_NODE_ARGS=--cpu-prof …) holds that phase alone.
  // BENCH_INTERLEAVE=1: the added latency at 1 client of each proxy (no recording, recording, the
  // bare Node proxy), each interleaved call by call with direct calls as the main table's is, and
  // nothing else: whether what Toolscope adds over the bare proxy comes from recording or not.
  if (process.env.BENCH_INTERLEAVE === '1') {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, recording, url] of [
        ['no record', false, plain],
        ['recording', true, recorded],
        ['bare Node proxy', null, bare],
      ]) {
        if (recording !== null) await setRecording(recording);
        const [viaDirect, viaProxy] = await measureInterleaved(direct, url, SINGLE_CALLS);
        console.log(
          `round ${round + 1}, ${name.padEnd(15)} interleaved with direct: direct p50 ${fmt(viaDirect.p50)}, proxied p50 ${fmt(viaProxy.p50)}, added ${fmt(viaProxy.p50 - viaDirect.p50)}`,
        );
      }
    }
    await toolscope.exit();
    await bareProxy.close();
    await upstream.close();
    await clientAgent.close();
    return;
  }

  if (process.env.BENCH_ALLOC === '1') {
    await measureAllocation({ bareProxy, toolscope, setRecording, bare, plain, recorded });
    await toolscope.exit();
    await bareProxy.close();
    await upstream.close();
    await clientAgent.close();
    return;
  }

  if (process.env.BENCH_ONLY) {
    const recording = process.env.BENCH_ONLY === 'recording';
    const phase = await proxyPhase(
      process.env.BENCH_ONLY,
      recording,
      (r) => r.calls,
      () => measure(recording ? recorded : plain, CONCURRENCY, CONCURRENT_CALLS),
    );
    console.log(
      `${process.env.BENCH_ONLY}, ${CONCURRENCY} clients: p50 ${fmt(phase.result.p50)}, ${phase.result.rps.toFixed(0)} calls/s, proxy process CPU ${phase.cpuPerCall.toFixed(0)} µs per call`,
    );
    await toolscope.exit();
    await bareProxy.close();
    await upstream.close();
    await clientAgent.close();
    return;
  }
  // PGlite has no autovacuum: Toolscope vacuums and analyzes its tables 60 s after it starts, then
  // every 10 minutes (src/server/db/tableMaintenance.ts). That first run is ~100–300 ms of PGlite's
  // thread; landing inside one phase of a few thousand calls it added up to ~50 µs to that phase's
  // CPU per call, and made a round's ratios swing. The rounds begin after it (BENCH_SETTLE=0: at once).
  if (!onPostgres && process.env.BENCH_SETTLE !== '0') {
    const settleMs = readyAt + 62_000 - performance.now();
    if (settleMs > 0) {
      console.log(`waiting ${(settleMs / 1000).toFixed(0)} s for PGlite's first table maintenance (60 s after start)`);
      await new Promise((resolve) => setTimeout(resolve, settleMs));
    }
  }
  const rounds = {
    cpuPlainVsBare: [],
    cpuRecVsBare: [],
    postgresPerCall: [],
    recVsPlain: [],
    recVsDirect: [],
    bareVsDirect: [],
    recVsBare: [],
    addedP50: [],
    addedP99: [],
    bareAddedP50: [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Throughput at 16 clients: direct and the bare Node proxy, then the two proxy modes back to
    // back, their order swapped every round so that neither always runs first. Each round gives its
    // own ratio: a pair measured seconds apart shares the machine's state far better than bests
    // picked from different rounds.
    const direct32 = await measure(direct, CONCURRENCY, CONCURRENT_CALLS);
    keep('direct', many, direct32);
    const bareCpuBefore = processCpuMicros(bareProxy.pid);
    const bare32 = await measure(bare, CONCURRENCY, CONCURRENT_CALLS);
    const bareCpu = (processCpuMicros(bareProxy.pid) - bareCpuBefore) / bare32.calls;
    keep('bare Node proxy', many, { ...bare32, cpuPerCall: bareCpu });
    rounds.bareVsDirect.push(bare32.rps / direct32.rps);
    const byRecording = {};
    for (const recording of round % 2 === 0 ? [false, true] : [true, false]) {
      const name = recording ? 'proxy, recording' : 'proxy, no record';
      const phase = await proxyPhase(
        `${name} ${many}`,
        recording,
        (r) => r.calls,
        () => measure(recording ? recorded : plain, CONCURRENCY, CONCURRENT_CALLS),
      );
      keep(name, many, {
        ...phase.result,
        cpuPerCall: phase.cpuWithWrite,
        backlog: phase.backlog,
        drainMs: phase.drainMs,
      });
      byRecording[recording] = phase.result;
      (recording ? rounds.cpuRecVsBare : rounds.cpuPlainVsBare).push(phase.cpuWithWrite / bareCpu);
      if (recording && onPostgres) rounds.postgresPerCall.push(phase.postgresPerCall);
    }
    rounds.recVsPlain.push(byRecording[true].rps / byRecording[false].rps);
    rounds.recVsDirect.push(byRecording[true].rps / direct32.rps);
    rounds.recVsBare.push(byRecording[true].rps / bare32.rps);

    // Latency at 1 client: the proxy without recording on its own (recording is switched per
    // process), then direct calls and calls through the recording proxy interleaved call by call.
    const plain1 = await proxyPhase(
      `proxy, no record ${one}`,
      false,
      (r) => r.calls,
      () => measure(plain, 1, SINGLE_CALLS),
    );
    keep('proxy, no record', one, { ...plain1.result, cpuPerCall: plain1.cpuPerCall });
    // Alone, too, for the record: this p99 is what a round's stalls decide (see measureInterleaved).
    const alone1 = await proxyPhase(
      `proxy, recording ${one} (alone)`,
      true,
      (r) => r.calls,
      () => measure(recorded, 1, SINGLE_CALLS),
    );
    keep('proxy, recording (alone)', one, { ...alone1.result, cpuPerCall: alone1.cpuPerCall });
    const pair = await proxyPhase(
      `proxy, recording ${one} (interleaved with direct)`,
      true,
      ([, r]) => r.calls,
      () => measureInterleaved(direct, recorded, SINGLE_CALLS),
    );
    const [direct1, recording1] = pair.result;
    keep('direct', one, direct1);
    keep('proxy, recording', one, {
      ...recording1,
      cpuPerCall: pair.cpuPerCall,
      backlog: pair.backlog,
      drainMs: pair.drainMs,
    });
    rounds.addedP50.push(recording1.p50 - direct1.p50);
    rounds.addedP99.push(recording1.p99 - direct1.p99);
    const bareCpuBefore1 = processCpuMicros(bareProxy.pid);
    const [directB, bare1] = await measureInterleaved(direct, bare, SINGLE_CALLS);
    keep('bare Node proxy', one, {
      ...bare1,
      cpuPerCall: (processCpuMicros(bareProxy.pid) - bareCpuBefore1) / bare1.calls,
    });
    rounds.bareAddedP50.push(bare1.p50 - directB.p50);
  }
  const { stored, stats, engine } = await toolscope.ask({ type: 'count' }, 'count');

  console.log(
    `MCP proxy bench: tools/call, ~1 KB result, database ${engine}, ${ROUNDS} rounds (medians shown), node ${process.version}, ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    'mode                      | clients    | p50        | p90        | p99        | calls/s | proxy process CPU/call',
  );
  for (const [name, label] of [
    ['direct', one],
    ['direct', many],
    ['bare Node proxy', one],
    ['bare Node proxy', many],
    ['proxy, no record', one],
    ['proxy, no record', many],
    ['proxy, recording', one],
    ['proxy, recording (alone)', one],
    ['proxy, recording', many],
  ]) {
    const results = cells[`${name}|${label}`];
    const m = (field) => median(results.map((r) => r[field]));
    const calls = label === one ? '-' : m('rps').toFixed(0);
    const cpu = name === 'direct' ? '-' : `${m('cpuPerCall').toFixed(0)} µs`;
    console.log(
      `${name.padEnd(25)} | ${label.padEnd(10)} | ${fmt(m('p50')).padEnd(10)} | ${fmt(m('p90')).padEnd(10)} | ${fmt(m('p99')).padEnd(10)} | ${calls.padEnd(7)} | ${cpu}`,
    );
  }
  const list = (values, digits = 2) => values.map((v) => v.toFixed(digits)).join(' / ');
  const addedP99 = median(rounds.addedP99);
  const recVsPlain = median(rounds.recVsPlain);
  const proxyVsDirect = median(rounds.recVsDirect);
  const lost = sentThroughRecording - stored;
  // Issue 19's targets: added p50 at 1 client <= 0.3 ms, proxy (recording) / direct >= 0.85x at 16
  // clients, recording / no recording >= 0.95x. The bare proxy's figures say how much of the gap any
  // second hop on Node's HTTP stack costs on this machine.
  const addedP50 = median(rounds.addedP50);
  console.log(
    `added latency at 1 client (recording proxy - direct, interleaved call by call): p50 ${fmt(addedP50)} (rounds: ${list(rounds.addedP50, 3)} ms), p99 ${fmt(addedP99)} (rounds: ${list(rounds.addedP99)} ms)  [target p50 <= 0.3 ms: ${addedP50 <= 0.3 ? 'met' : 'MISSED'}]`,
  );
  console.log(
    `  the bare Node proxy adds p50 ${fmt(median(rounds.bareAddedP50))} (rounds: ${list(rounds.bareAddedP50, 3)} ms)`,
  );
  console.log(
    `throughput at ${CONCURRENCY} clients: recording / no recording = ${recVsPlain.toFixed(2)}x (median; rounds: ${list(rounds.recVsPlain)})  [target >= 0.95x: ${recVsPlain >= 0.95 ? 'met' : 'MISSED'}]`,
  );
  console.log(
    `throughput at ${CONCURRENCY} clients: proxy (recording) / direct = ${proxyVsDirect.toFixed(2)}x (median; rounds: ${list(rounds.recVsDirect)})  [target >= 0.85x: ${proxyVsDirect >= 0.85 ? 'met' : 'MISSED'}]`,
  );
  console.log(
    `throughput at ${CONCURRENCY} clients: bare Node proxy / direct = ${median(rounds.bareVsDirect).toFixed(2)}x, proxy (recording) / bare Node proxy = ${median(rounds.recVsBare).toFixed(2)}x (medians; rounds: ${list(rounds.bareVsDirect)} · ${list(rounds.recVsBare)})`,
  );
  for (const label of [one, many]) {
    const results = cells[`proxy, recording|${label}`];
    const worst = results.reduce((a, b) => (b.backlog > a.backlog ? b : a));
    console.log(
      `recorder backlog when the load stopped (${label}): at most ${worst.backlog} rows, written ${worst.drainMs.toFixed(0)} ms later`,
    );
  }
  console.log(
    `recorded calls: sent ${sentThroughRecording}, stored ${stored}, dropped by the queue ${stats.dropped.toolCalls}, lost on write errors ${stats.lostOnWriteError}`,
  );
  console.log(`recorded calls lost: ${lost}`);

  // Issue 39's targets: ratios to the bare Node proxy measured in the same round (CPU per call at
  // ${CONCURRENCY} clients; the recording figure includes writing what was queued when the load
  // stopped), and the added p50 at 1 client over the bare proxy's.
  const cpuPlain = median(rounds.cpuPlainVsBare);
  const cpuRec = median(rounds.cpuRecVsBare);
  const recTarget = onPostgres ? 1.5 : 1.8;
  const overBare = addedP50 - median(rounds.bareAddedP50);
  const targets = [
    [
      `CPU per call, no recording ÷ bare proxy = ${cpuPlain.toFixed(2)}× (rounds: ${list(rounds.cpuPlainVsBare)})`,
      cpuPlain <= 1.25,
      '≤ 1.25×',
    ],
    [
      `CPU per call, recording ÷ bare proxy = ${cpuRec.toFixed(2)}× (${onPostgres ? "Toolscope's process; PostgreSQL's own CPU beside" : "PGlite, all of Toolscope's threads"}; rounds: ${list(rounds.cpuRecVsBare)})`,
      cpuRec <= recTarget,
      `≤ ${recTarget}×`,
    ],
    [
      `added p50 at 1 client over the bare proxy's = ${overBare >= 0 ? '+' : ''}${fmt(overBare)}`,
      overBare <= 0.1,
      '≤ +0.1 ms',
    ],
  ];
  for (const [text, met, target] of targets) console.log(`${text}  [target ${target}: ${met ? 'met' : 'MISSED'}]`);
  if (onPostgres)
    console.log(
      `  PostgreSQL, the backends of the bench's database: ${median(rounds.postgresPerCall).toFixed(0)} µs of CPU per recorded call (rounds: ${list(rounds.postgresPerCall, 0)}; the server's shared processes not counted)`,
    );
  const metCount = targets.filter(([, met]) => met).length;
  console.log(
    `verdict (issue 39): ${metCount} of ${targets.length} targets met; recorded calls lost ${lost} (target 0: ${lost === 0 ? 'met' : 'MISSED'})`,
  );

  await toolscope.exit();
  await bareProxy.close();
  await upstream.close();
  await clientAgent.close();
  process.exitCode = lost === 0 ? 0 : 1;
}

if (process.argv[2] === '--toolscope') {
  toolscopeChild().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else if (process.argv[2] === '--bare-proxy') {
  startBareProxy(process.argv[3]).then((url) => console.log(url));
  process.on('SIGTERM', () => process.exit(0));
  process.stdin.on('end', () => process.exit(0));
  answerAllocationCommands(process.stdin, (result) => console.log(JSON.stringify(result)));
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
