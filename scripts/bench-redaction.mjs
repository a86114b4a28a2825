#!/usr/bin/env node
// Part of `npm run bench`: what redaction costs the recorder's path (issue 35). The built server's
// Recorder (dist/node: `npm run build:server`) records tools/call request + response pairs of a
// given payload size, with the default redaction rules and without any, interleaved round by
// round in one process (same machine state for both). record() is what runs on the proxy's event
// loop; the database write happens later in the batch and is the same either way. Prints µs per
// pair and per KB for each, their ratio, and how long one 4 MiB argument of near-matches (every
// rule's keyword followed by almost-a-token) holds the event loop with the default rules.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(root, 'dist/node/server', file));
const { Recorder } = dist('recording/recorder.js');
const { EventBus } = dist('events/bus.js');
const { WorkspaceRedaction } = dist('recording/redaction/workspaceRedaction.js');

const ROUNDS = Number(process.env.BENCH_REDACTION_ROUNDS ?? 7);
/** Pairs per run: 400 of 1 KB, fewer of larger payloads (the same bytes per run: what one run queues stays in memory until it is dropped). */
const PAIRS_1KB = Number(process.env.BENCH_REDACTION_PAIRS ?? 400);
const pairsFor = (kb) => Math.max(25, Math.round(PAIRS_1KB / Math.sqrt(kb)));
const SIZES_KB = [1, 16, 64];
const workspaceId = '00000000-0000-4000-8000-000000000001';

// The recorder never reaches the database here: its flush timer is an hour away and each round's
// queue is dropped with its recorder.
const db = { engine: 'pglite', query: async () => [], listen: async () => async () => undefined };
const redaction = new WorkspaceRedaction(db, 'bench-secret');

/** Text like a tool's output: prose, paths, JSON, numbers, no secrets (the common case). */
function payloadText(bytes) {
  const unit =
    'The file src/server/app.ts has 241 lines; {"status":"ok","items":[1,2,3],"next":null} — see docs/proxy.md for how sessions end. ';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

function recorderWith(redact) {
  const recorder = new Recorder(db, new EventBus(), {
    flushMs: 3_600_000,
    queueLimit: 10_000_000,
    payloadLimit: 1 << 30,
    ...(redact ? { redaction } : {}),
  });
  const session = recorder.startSession(
    { workspaceId, serverId: '00000000-0000-4000-8000-000000000002', serverName: 'bench' },
    { transport: 'streamable-http' },
  );
  return { recorder, session };
}

function runPairs(redact, text) {
  const { recorder, session } = recorderWith(redact);
  const pairs = pairsFor(text.length / 1024);
  const started = process.hrtime.bigint();
  for (let i = 0; i < pairs; i++) {
    const request = {
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'read', arguments: { query: text } },
    };
    const response = { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }] } };
    recorder.record(session, 'client_to_server', request, text.length + 80, JSON.stringify(request));
    recorder.record(session, 'server_to_client', response, text.length + 80, JSON.stringify(response));
  }
  const micros = Number(process.hrtime.bigint() - started) / 1000;
  // Its queued rows go with it: the write timer is stopped and nothing refers to it any more.
  recorder.queue.stopTimer();
  return micros / pairs;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(
  `recorder.record(), request + response of N KB each (${SIZES_KB.map((kb) => `${pairsFor(kb)} pairs of ${kb} KB`).join(', ')}) × ${ROUNDS} rounds, median µs per pair`,
);
console.log('| payload | without redaction | with default rules | added per KB | with ÷ without |');
console.log('|---|---|---|---|---|');
for (const kb of SIZES_KB) {
  const text = payloadText(kb * 1024);
  runPairs(false, text);
  runPairs(true, text); // warm-up
  const without = [];
  const withRules = [];
  for (let round = 0; round < ROUNDS; round++) {
    without.push(runPairs(false, text));
    withRules.push(runPairs(true, text));
  }
  const a = median(without);
  const b = median(withRules);
  console.log(
    `| ${kb} KB | ${a.toFixed(1)} | ${b.toFixed(1)} | ${((b - a) / (2 * kb)).toFixed(2)} µs | ${(b / a).toFixed(2)}× |`,
  );
}

// One pathological argument: 4 MiB of near-matches of the default rules.
const nearMatches = [
  'ghp_short ',
  'AKIA1234 ',
  'eyJhbGci.eyJzdWIi ',
  'sk_live_abc ',
  'xoxb-123-456 ',
  'password ',
  'https://a:b ',
  'Bearer x ',
].join('');
const huge = nearMatches.repeat(Math.ceil((4 * 1024 * 1024) / nearMatches.length));
for (const redact of [false, true]) {
  const { recorder, session } = recorderWith(redact);
  const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: { query: huge } } };
  const started = process.hrtime.bigint();
  recorder.record(session, 'client_to_server', request, huge.length);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(
    `4 MiB argument of near-matches, ${redact ? 'default rules' : 'no redaction'}: ${ms.toFixed(1)} ms on the event loop`,
  );
}
process.exit(0);
