// Phase 2 of scripts/bench-ingest.mjs: retention with time compressed. Partitions are weekly and
// windows are days, so ten real minutes never see a partition expire. Here the recorder's real
// batch writer (writeBatch, batchWriter.ts) writes calls whose started_at advances by simulated
// days, paced at the rate the proxy sustained in phase 1, and the real expiry job
// (expireRecordedData, which takes `now` from its caller) runs at the end of every simulated day,
// as the hourly job would have by then. The workspace keeps 7 days of raw data: the database grows
// for the first weeks, then each day's expiry (a dropped week, row deletes of the days past the
// window inside the live weeks) takes away about what the day wrote.
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { requireSource as require } from './tsSources.mjs';
const { createScratchDatabase } = require('../test/server/helpers/scratchDatabase.ts');
const { openDatabase } = require('../src/server/db/database.ts');
const { migrate } = require('../src/server/db/migrate.ts');
const { writeBatch } = require('../src/server/recording/batchWriter.ts');
const { expireRecordedData } = require('../src/server/data/retention/expiry.ts');
const { weekStart } = require('../src/server/data/retention/partitions.ts');

const DAY_MS = 86_400_000;
const CALLS_PER_SESSION = 50;
const BATCH_CALLS = 250;
const RESULT_TEXT = 'x'.repeat(1000);
const RECORDER_ID = randomUUID();

/** The raw tables' bytes (every partition, indexes and TOAST included) and the database's. */
export async function rawBytes(db) {
  const [row] = await db.query(
    `select
       (select coalesce(sum(pg_total_relation_size(inhrelid)), 0) from pg_inherits where inhparent in ('tool_calls'::regclass, 'messages'::regclass))::float8
         + pg_total_relation_size('sessions')::float8 as raw,
       pg_database_size(current_database())::float8 as database`,
  );
  return row;
}

async function seedWorkspace(db, windowDays) {
  const [user] = await db.query(
    "insert into users (email, password_hash, first_name, last_name) values ($1, 'x', 'B', 'B') returning id",
    [`${randomUUID()}@bench.test`],
  );
  await db.query("insert into subscriptions (user_id, plan) values ($1, 'enterprise')", [user.id]);
  const [ws] = await db.query(
    "insert into workspaces (name, owner_id, raw_retention_days) values ('Bench', $1, $2) returning id",
    [user.id, windowDays],
  );
  const [server] = await db.query(
    "insert into servers (workspace_id, name, url, proxy_key) values ($1, 'bench', 'http://127.0.0.1:9/', $2) returning id",
    [ws.id, randomBytes(16).toString('hex')],
  );
  return { workspaceId: ws.id, serverId: server.id };
}

/** One batch as the recorder hands it to writeBatch: its sessions, their start messages, their calls. */
function batchAt(ids, firstCall, startMs, stepMs) {
  const sessions = [];
  const messages = [];
  const toolCalls = [];
  for (let k = 0; k < BATCH_CALLS; k += 1) {
    const n = firstCall + k;
    const at = startMs + k * stepMs;
    const i = n % CALLS_PER_SESSION;
    if (i === 0 || k === 0) {
      const first = at - i * stepMs;
      const last = first + (CALLS_PER_SESSION - 1) * stepMs;
      const sessionId = randomUUID();
      sessions.push({
        id: sessionId,
        workspace_id: ids.workspaceId,
        server_id: ids.serverId,
        mcp_session_id: randomUUID(),
        transport: 'streamable-http',
        protocol_version: '2025-06-18',
        client_name: 'bench-client',
        client_version: '1.0.0',
        client_key: null,
        trace_id: null,
        platform_key_id: null,
        status: 'ended',
        started_at: new Date(first).toISOString(),
        last_activity_at: new Date(last).toISOString(),
        ended_at: new Date(last).toISOString(),
        message_count: 3 + 2 * CALLS_PER_SESSION,
        call_count: CALLS_PER_SESSION,
        error_count: 0,
        argument_tokens: 0,
        result_tokens: 0,
        definition_tokens: 0,
        recorder_id: RECORDER_ID,
      });
      const message = (seq, direction, kind, method, payload) => ({
        workspace_id: ids.workspaceId,
        session_id: sessionId,
        seq,
        direction,
        kind,
        method,
        jsonrpc_id: method === 'notifications/initialized' ? null : '0',
        payload,
        size_bytes: payload.length,
        truncated: false,
        created_at: new Date(first).toISOString(),
      });
      messages.push(
        message(
          1,
          'client_to_server',
          'request',
          'initialize',
          '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-client","version":"1.0.0"}}}',
        ),
        message(
          2,
          'server_to_client',
          'response',
          null,
          '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"bench-upstream","version":"1.0.0"}}}',
        ),
        message(
          3,
          'client_to_server',
          'notification',
          'notifications/initialized',
          '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        ),
      );
    }
    const sessionId = sessions[sessions.length - 1].id;
    const request = JSON.stringify({
      jsonrpc: '2.0',
      id: n,
      method: 'tools/call',
      params: { name: 'payload', arguments: { n } },
    });
    const response = JSON.stringify({
      jsonrpc: '2.0',
      id: n,
      result: { content: [{ type: 'text', text: `${n}:${RESULT_TEXT}` }] },
    });
    toolCalls.push({
      id: randomUUID(),
      workspace_id: ids.workspaceId,
      server_id: ids.serverId,
      session_id: sessionId,
      jsonrpc_id: String(n),
      tool_name: 'payload',
      arguments: { n },
      result: null,
      error_message: null,
      status: 'ok',
      started_at: new Date(at).toISOString(),
      ended_at: new Date(at + 2).toISOString(),
      duration_ms: 2,
      request_bytes: request.length,
      response_bytes: response.length,
      tokens_estimate: Math.ceil((request.length + response.length) / 4),
      meta: null,
      traceparent: null,
      request_seq: 4 + 2 * i,
      request_payload: request,
      request_truncated: false,
      response_seq: 5 + 2 * i,
      response_kind: 'response',
      response_payload: response,
      response_truncated: false,
      argument_tokens: 10,
      result_tokens: 250,
      error_class: null,
      platform_key_id: null,
    });
  }
  return { sessions, messages, toolCalls, usage: [], traffic: null };
}

/**
 * Writes `days` simulated days of `callsPerDay` calls each at `rate` calls a second, with the
 * expiry at the end of every day. Prints one line a day; returns the rows.
 */
export async function simulateExpiry({ baseUrl, rate, days, callsPerDay, windowDays }) {
  const scratch = await createScratchDatabase(baseUrl, 'toolscope_bench_expiry');
  const db = await openDatabase({ databaseUrl: scratch.url });
  const rows = [];
  try {
    await migrate(db);
    const ids = await seedWorkspace(db, windowDays);
    // From the Monday after migration 034's cutover: every row lands in a weekly partition.
    const simStart = weekStart(Date.now()) + 14 * DAY_MS;
    await expireRecordedData(db, { now: new Date(simStart), operatorCapDays: null });
    const stepMs = DAY_MS / callsPerDay;
    const started = performance.now();
    let written = 0;
    console.log(
      `\nphase 2: ${days} simulated days of ${callsPerDay.toLocaleString('en')} calls, written by writeBatch at ${rate.toFixed(0)} calls/s (a day every ${(callsPerDay / rate).toFixed(1)} s), raw window ${windowDays} days, expireRecordedData at the end of each day`,
    );
    console.log(
      'day | calls written | calls stored | raw tables MB | database MB | expiry ms | partitions dropped | rows deleted (calls/messages/sessions) | load',
    );
    for (let day = 0; day < days; day += 1) {
      const dayStart = simStart + day * DAY_MS;
      for (let c = 0; c < callsPerDay; c += BATCH_CALLS) {
        await writeBatch(db, batchAt(ids, day * callsPerDay + c, dayStart + c * stepMs, stepMs));
        written += BATCH_CALLS;
        // Paced at phase 1's rate: ahead of it, wait.
        const ahead = (written / rate) * 1000 - (performance.now() - started);
        if (ahead > 0) await new Promise((r) => setTimeout(r, ahead));
      }
      const t = performance.now();
      const counts = await expireRecordedData(db, { now: new Date(dayStart + DAY_MS), operatorCapDays: null });
      const expiryMs = performance.now() - t;
      const [{ stored }] = await db.query('select count(*)::int as stored from tool_calls');
      const sizes = await rawBytes(db);
      const row = {
        day: day + 1,
        written,
        stored,
        rawMb: sizes.raw / 1e6,
        databaseMb: sizes.database / 1e6,
        expiryMs,
        dropped: counts.partitionsDropped,
        deleted: `${counts.toolCalls}/${counts.messages}/${counts.sessions}`,
        load: os.loadavg()[0].toFixed(1),
      };
      rows.push(row);
      console.log(
        `${String(row.day).padStart(3)} | ${String(written).padStart(13)} | ${String(stored).padStart(12)} | ${row.rawMb.toFixed(1).padStart(13)} | ${row.databaseMb.toFixed(1).padStart(11)} | ${expiryMs.toFixed(0).padStart(9)} | ${(row.dropped.join(' ') || '-').padEnd(18)} | ${row.deleted.padEnd(38)} | ${row.load}`,
      );
    }
  } finally {
    await db.close();
    await scratch.drop();
  }
  return rows;
}
