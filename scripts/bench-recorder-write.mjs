#!/usr/bin/env node
// `node scripts/bench-recorder-write.mjs`: what the recorder's batch write costs the database, per
// stored call, on PGlite on disk — the real `writeBatch` (batchWriter.ts) with its rollups (the
// usage minutes, the traffic increments) and the fold of those increments (trafficFold.ts), run
// on the calling thread (`pgliteOnCallingThread`), so the process's CPU (`process.cpuUsage`) is
// PGlite's work plus the writer's encoding. Steadier on this shared machine than wall time.
// Each variant gets a database of its own in a temporary folder, migrated, holding PRELOAD calls
// first; then ROUNDS rounds, in an order rotated every round, of BATCHES batches × BENCH_BATCH_CALLS (250) settled
// calls shaped like `npm run bench:proxy`'s (a ~120-byte tools/call request, a ~950-byte result;
// 16 sessions per batch, each session's row written with every batch; one tool, one client; token
// counts given, as the tokenizer thread sets them), and a fold of the pending increments after the
// round's batches (inside the timing: one fold per 3,000 calls, more often than the server's one
// per 5 s at the proxy bench's rates). Prints µs of CPU per stored call for each variant (median
// and mean of rounds), each variant ÷ the first (median of per-round ratios), and the fold's CPU.
// Variants (BENCH_VARIANTS, comma-separated; default: the first six below, on this tree):
//   full            the write as the recorder runs it
//   norollup        no usage rows, no traffic increments, no fold
//   nousage, nopending   no usage rows / no traffic increments and no fold
//   nosearch        without the GIN search index (tool_calls_search_v2)
//   nosessionidx    without tool_calls_session
//   noworkspaceidx  without tool_calls_workspace_started
//   nosessions      the session rows written with the round's first batch only, not with every batch
//   nofk            without the calls' foreign key to their session
//   ginnofast, gin1m, gin16m   the search index without its pending list, or with one of 1 / 16 MB
//   nosessionsstarted          without sessions_workspace_started (dropped by migration 042)
//   sharesff        session_count_shares at fillfactor 70
// Variants combine with +: `nosessions+norollup`. A variant may name a tree: `main:full` runs BENCH_MAIN_TREE's (default /work/main) migrations and
// writer beside this tree's `full` — before/after in one run, rounds alternated.
// Options (env): BENCH_ROUNDS (7), BENCH_BATCHES (12 per round), BENCH_BATCH_CALLS (250),
// BENCH_SESSIONS (16 per batch; 250: every call's session row written with it, as when many agents
// call now and then), BENCH_PRELOAD (20000 calls), BENCH_EXPLAIN=1 (EXPLAIN ANALYZE of one batch
// statement of each `full` variant, the third of three, before the rounds).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

import { requireSource as require } from './lib/tsSources.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 12);
const PRELOAD = Number(process.env.BENCH_PRELOAD ?? 20000);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 16);
const BATCH = Number(process.env.BENCH_BATCH_CALLS ?? 250);
const VARIANTS = (process.env.BENCH_VARIANTS ?? 'full,norollup,nosearch,nosessionidx,noworkspaceidx,nosessions').split(
  ',',
);
const TREES = { this: new URL('..', import.meta.url).pathname, main: process.env.BENCH_MAIN_TREE ?? '/work/main' };
/** The search index's options, set on each partition's index (a partitioned index takes none). */
function searchPartitions(option) {
  return `do $$ declare i regclass; begin
    for i in select inhrelid::regclass from pg_inherits where inhparent = 'tool_calls_search_v2'::regclass loop
      execute format('alter index %s set (${option})', i);
    end loop; end $$`;
}
/** Variants that change the schema: the statement run after the migrations. */
const SCHEMA = {
  nosearch: 'drop index tool_calls_search_v2',
  nosessionidx: 'drop index tool_calls_session',
  noworkspaceidx: 'drop index tool_calls_workspace_started',
  ginnofast: searchPartitions('fastupdate = off'),
  gin1m: searchPartitions('gin_pending_list_limit = 1024'),
  gin16m: searchPartitions('gin_pending_list_limit = 16384'),
  nofk: 'alter table tool_calls drop constraint tool_calls_session_id_fkey',
  nosessionsstarted: 'drop index sessions_workspace_started',
  sharesff: 'alter table session_count_shares set (fillfactor = 70)',
};

/** The modules of one tree (each tree's own copy: required by absolute path). */
function treeModules(root) {
  const load = (file) => require(path.join(root, file));
  return {
    openDatabase: load('src/server/db/database.ts').openDatabase,
    migrate: load('src/server/db/migrate.ts').migrate,
    ensureWeeklyPartitions: load('src/server/data/retention/partitions.ts').ensureWeeklyPartitions,
    writeBatch: load('src/server/recording/batchWriter.ts').writeBatch,
    UsageRollup: load('src/server/recording/usageRollup.ts').UsageRollup,
    TrafficRollup: load('src/server/recording/trafficRollup.ts').TrafficRollup,
    foldAllPendingTraffic: load('src/server/recording/trafficFold.ts').foldAllPendingTraffic,
  };
}

const RESULT_TEXT = 'x'.repeat(880);

function session(ids, i, at) {
  return {
    id: randomUUID(),
    workspace_id: ids.workspaceId,
    server_id: ids.serverId,
    server_name: 'bench',
    mcp_session_id: randomUUID(),
    transport: 'streamable-http',
    protocol_version: '2025-06-18',
    client_name: 'bench-client',
    client_version: '1.0.0',
    client_key: `bench-client-${i}`,
    trace_id: null,
    platform_key_id: null,
    status: 'active',
    started_at: at,
    last_activity_at: at,
    ended_at: null,
    message_count: 0,
    call_count: 0,
    error_count: 0,
    argument_tokens: 0,
    result_tokens: 0,
    definition_tokens: 0,
    recorder_id: ids.recorderId,
  };
}

/** A settled tools/call as the recorder queues it (the bench's shape), its token counts given. */
function call(ids, sessionRow, n, at) {
  const request = JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method: 'tools/call',
    params: { name: 'payload', arguments: { n, path: `/srv/project-${n % 97}/notes-${n}.md` } },
  });
  const response = JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    result: { content: [{ type: 'text', text: `${n}:${RESULT_TEXT}` }] },
  });
  return {
    id: randomUUID(),
    workspace_id: ids.workspaceId,
    server_id: ids.serverId,
    server_name: 'bench',
    session_id: sessionRow.id,
    jsonrpc_id: String(n),
    tool_name: 'payload',
    error_message: null,
    status: 'ok',
    started_at: at,
    ended_at: at,
    duration_ms: 2 + (n % 7),
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
    argument_tokens: 14,
    result_tokens: 230,
    error_class: null,
    platform_key_id: null,
  };
}

async function openVariant(name) {
  const [treeName, variant] = name.includes(':') ? name.split(':') : ['this', name];
  const m = treeModules(TREES[treeName]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `recorder-write-${variant}-`));
  const db = await m.openDatabase({ dataDir, pgliteOnCallingThread: true });
  await m.migrate(db);
  await m.ensureWeeklyPartitions(db, new Date());
  const flags = new Set(variant.split('+'));
  for (const flag of flags) if (SCHEMA[flag]) await db.query(SCHEMA[flag]);
  const ids = { workspaceId: randomUUID(), serverId: randomUUID(), recorderId: randomUUID() };
  const userId = randomUUID();
  await db.query(`insert into users (id, email, password_hash, first_name, last_name) values ($1, $2, 'x', 'B', 'U')`, [
    userId,
    `${userId}@bench.test`,
  ]);
  await db.query(`insert into workspaces (id, name, owner_id) values ($1, 'Bench', $2)`, [ids.workspaceId, userId]);
  await db.query(
    `insert into servers (id, workspace_id, name, url, proxy_key, status) values ($1, $2, 'bench', 'http://127.0.0.1:9/', $3, 'online')`,
    [ids.serverId, ids.workspaceId, randomUUID()],
  );
  const v = {
    name,
    variant,
    flags,
    m,
    db,
    dataDir,
    ids,
    n: 0,
    seq: 0,
    usage: new m.UsageRollup(),
    traffic: new m.TrafficRollup(null),
    sessions: [],
    perCall: [],
    foldMs: [],
  };
  const rounds = Math.ceil(PRELOAD / (BATCH * BATCHES));
  for (let r = 0; r < rounds; r += 1) await runRound(v, false);
  return v;
}

/** One batch as the recorder takes it; `rollups` false: without usage and traffic. */
function nextBatch(v, first) {
  const at = new Date().toISOString();
  const rollups = !v.flags.has('norollup');
  if (first || v.sessions.length === 0) {
    v.sessions = Array.from({ length: SESSIONS }, (_, i) => session(v.ids, i, at));
    if (rollups) for (const row of v.sessions) v.traffic.noteSession({ row, announced: true, endAnnounced: false });
  }
  const toolCalls = [];
  for (let i = 0; i < BATCH; i += 1) {
    const s = v.sessions[i % SESSIONS];
    const c = call(v.ids, s, v.n++, at);
    s.call_count += 1;
    s.message_count += 2;
    s.result_tokens += 230;
    s.argument_tokens += 14;
    s.last_activity_at = at;
    toolCalls.push(c);
    if (rollups) {
      v.usage.add(c);
      v.traffic.add(c);
    }
  }
  const sessions = first || !v.flags.has('nosessions') ? v.sessions.map((s) => ({ ...s })) : [];
  const usage = rollups && !v.flags.has('nousage') ? v.usage.take() : [];
  const traffic = rollups && !v.flags.has('nopending') ? v.traffic.take().traffic : null;
  return { sessions, messages: [], toolCalls, usage, traffic };
}

/** BATCHES batches (new sessions at the first) and a fold; returns CPU µs per stored call. */
async function runRound(v, timed = true) {
  const batches = Array.from({ length: BATCHES }, (_, b) => nextBatch(v, b === 0));
  const before = process.cpuUsage();
  for (const batch of batches) await v.m.writeBatch(v.db, batch, { recorderId: v.ids.recorderId, seq: ++v.seq });
  const beforeFold = process.cpuUsage();
  if (!v.flags.has('norollup') && !v.flags.has('nopending')) await v.m.foldAllPendingTraffic(v.db);
  const fold = process.cpuUsage(beforeFold);
  if (timed) v.foldMs.push((fold.user + fold.system) / 1000);
  const used = process.cpuUsage(before);
  const perCall = (used.user + used.system) / (BATCHES * BATCH);
  if (timed) v.perCall.push(perCall);
  return perCall;
}

const mean = (values) => values.reduce((sum, x) => sum + x, 0) / values.length;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function explainOnce(v) {
  // The statement the writer sends, captured from one batch, explained (and so executed) once.
  let captured = null;
  const spy = {
    engine: v.db.engine,
    query: async (sql, params) => {
      captured = { sql, params };
      return [];
    },
  };
  let rows;
  // The last of three: the first pays for the session's catalog caches.
  for (let i = 0; i < 3; i += 1) {
    await v.m.writeBatch(spy, nextBatch(v, i === 0), { recorderId: v.ids.recorderId, seq: ++v.seq });
    rows = await v.db.query(`explain (analyze, costs off, timing on) ${captured.sql}`, captured.params);
  }
  console.log(`\nEXPLAIN ANALYZE, ${v.name}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
}

async function main() {
  console.log(
    `recorder write: ${ROUNDS} rounds × ${BATCHES} batches × ${BATCH} calls, ${SESSIONS} sessions per batch, ${PRELOAD} calls preloaded; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const variants = [];
  for (const name of VARIANTS) variants.push(await openVariant(name));
  if (process.env.BENCH_EXPLAIN) for (const v of variants.filter((x) => x.flags.has('full'))) await explainOnce(v);
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    if (round % 2) order.reverse();
    for (const v of order) await runRound(v);
  }
  const base = variants[0];
  console.log(`\nµs of CPU per stored call (median of ${ROUNDS} rounds; ÷ ${base.name}, median of per-round ratios):`);
  for (const v of variants) {
    const ratios = v.perCall.map((x, i) => x / base.perCall[i]);
    console.log(
      `  ${v.name.padEnd(20)} ${median(v.perCall).toFixed(1).padStart(7)} µs (mean ${mean(v.perCall).toFixed(1)})   ×${median(ratios).toFixed(2)}   rounds ${v.perCall
        .map((x) => x.toFixed(0))
        .join(
          ' ',
        )}${v.foldMs.length && !v.flags.has('norollup') ? `; the fold ${median(v.foldMs).toFixed(1)} ms CPU per round` : ''}`,
    );
  }
  console.log(
    `load after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const v of variants) {
    await v.db.close();
    fs.rmSync(v.dataDir, { recursive: true, force: true });
  }
}

await main();
