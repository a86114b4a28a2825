#!/usr/bin/env node
// Part of `npm run bench`: what redaction costs the recorder's path (issue 35). The built server's
// Recorder (dist/node: `npm run build:server`) records tools/call request + response pairs of a
// given payload size, with the default redaction rules and without any, interleaved round by
// round in one process (same machine state for both). record() is what runs on the proxy's event
// loop; the database write happens later in the batch and is the same either way. Prints µs per
// pair and per KB for each, their ratio; then the same with the rules as the proxy runs them
// (messages of 256 KiB and more redacted on the redaction thread, redactionThread.ts), timed until
// every message is recorded. Last, one 4 MiB argument of near-matches (every rule's keyword
// followed by almost-a-token): how long the event loop is held — the longest gap of a 1 ms ticker
// while it is recorded — without redaction, redacted inline, and redacted on the thread.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(root, 'dist/node/server', file));
const { Recorder } = dist('recording/recorder.js');
const { EventBus } = dist('events/bus.js');
const { WorkspaceRedaction } = dist('recording/redaction/workspaceRedaction.js');
const { RedactionThread, DEFAULT_MIN_BYTES } = dist('recording/redaction/redactionThread.js');

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
// As the proxy runs it (plugin.ts): large messages on the thread.
const thread = new RedactionThread(DEFAULT_MIN_BYTES);
const threaded = new WorkspaceRedaction(db, 'bench-secret', undefined, thread);

/** Text like a tool's output: prose, paths, JSON, numbers, no secrets (the common case). */
function payloadText(bytes) {
  const unit =
    'The file src/server/app.ts has 241 lines; {"status":"ok","items":[1,2,3],"next":null} — see docs/proxy.md for how sessions end. ';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** `redact`: false (none), 'inline' (every message on this thread) or 'thread' (as the proxy runs it). */
function recorderWith(redact) {
  const recorder = new Recorder(db, new EventBus(), {
    flushMs: 3_600_000,
    queueLimit: 10_000_000,
    payloadLimit: 1 << 30,
    ...(redact ? { redaction: redact === 'thread' ? threaded : redaction } : {}),
  });
  const session = recorder.startSession(
    { workspaceId, serverId: '00000000-0000-4000-8000-000000000002', serverName: 'bench' },
    { transport: 'streamable-http' },
  );
  return { recorder, session };
}

async function runPairs(redact, text) {
  const { recorder, session } = recorderWith(redact);
  const pairs = pairsFor(text.length / 1024);
  const loop = performance.eventLoopUtilization();
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
  // Large messages on the thread are recorded when it answers (nothing waits inline or without rules).
  await recorder.recorded();
  const micros = Number(process.hrtime.bigint() - started) / 1000;
  // The event loop's busy time: all of it inline; on the thread, only the posts and the answers.
  const busyMicros = performance.eventLoopUtilization(loop).active * 1000;
  // Its queued rows go with it: the write timer is stopped and nothing refers to it any more.
  recorder.queue.stopTimer();
  return { perPair: micros / pairs, busyPerPair: busyMicros / pairs };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(
  `recorder.record(), request + response of N KB each (${SIZES_KB.map((kb) => `${pairsFor(kb)} pairs of ${kb} KB`).join(', ')}) × ${ROUNDS} rounds, median µs per pair`,
);
console.log(
  `(thread: the default rules as the proxy runs them, messages of ${DEFAULT_MIN_BYTES / 1024} KiB and more on the redaction thread, timed until all are recorded)`,
);
console.log(
  '| payload | without redaction | with default rules | added per KB | with ÷ without | thread: until recorded | thread: event loop busy | busy ÷ with |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const kb of SIZES_KB) {
  const text = payloadText(kb * 1024);
  const variants = [false, 'inline', 'thread'];
  for (const redact of variants) await runPairs(redact, text); // warm-up
  const runs = { false: [], inline: [], thread: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Each round in another order: the run after another pays for the garbage it left.
    for (let i = 0; i < variants.length; i++) {
      const redact = variants[(round + i) % variants.length];
      runs[String(redact)].push(await runPairs(redact, text));
    }
  }
  const a = median(runs.false.map((run) => run.perPair));
  const b = median(runs.inline.map((run) => run.perPair));
  const c = median(runs.thread.map((run) => run.perPair));
  const busy = median(runs.thread.map((run) => run.busyPerPair));
  console.log(
    `| ${kb} KB | ${a.toFixed(1)} | ${b.toFixed(1)} | ${((b - a) / (2 * kb)).toFixed(2)} µs | ${(b / a).toFixed(2)}× | ${c.toFixed(1)} | ${busy.toFixed(1)} | ${(busy / b).toFixed(2)}× |`,
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

/** The longest gap between ticks of a 1 ms timer while `work` runs (and until it has settled). */
async function longestStall(work) {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 20)); // the ticker runs before the work starts
  const started = performance.now();
  await work();
  const elapsed = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 20)); // and a while after it
  clearInterval(ticker);
  return { longest: Math.max(longest, performance.now() - last), elapsed };
}

const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: { query: huge } } };
// As the proxy records it: with its exact text (the body), so nothing is serialized again.
const requestText = JSON.stringify(request);
const STALL_ROUNDS = Number(process.env.BENCH_REDACTION_STALL_ROUNDS ?? 5);
const stalls = { idle: [], none: [], inline: [], thread: [] };
const recordedIn = { none: [], inline: [], thread: [] };
for (let round = 0; round <= STALL_ROUNDS; round++) {
  // The ticker alone: what the machine's load adds to any gap.
  const idle = await longestStall(() => new Promise((resolve) => setTimeout(resolve, 5)));
  if (round > 0) stalls.idle.push(idle.longest);
  for (const redact of [false, 'inline', 'thread']) {
    const { recorder, session } = recorderWith(redact);
    const { longest, elapsed } = await longestStall(async () => {
      recorder.record(session, 'client_to_server', request, requestText.length, requestText);
      await recorder.recorded();
    });
    recorder.queue.stopTimer();
    // Round 0 warms up (and starts the thread).
    if (round === 0) continue;
    stalls[redact || 'none'].push(longest);
    recordedIn[redact || 'none'].push(elapsed);
  }
}
const ms = (values) => `${median(values).toFixed(1)} ms (max ${Math.max(...values).toFixed(1)})`;
console.log(
  `4 MiB argument of near-matches, ${STALL_ROUNDS} rounds, median longest gap of a 1 ms ticker (the event loop held), and the message's time to recorded:`,
);
console.log('| | longest gap | recorded after |');
console.log('|---|---|---|');
console.log(`| ticker alone | ${ms(stalls.idle)} | |`);
console.log(`| no redaction | ${ms(stalls.none)} | ${ms(recordedIn.none)} |`);
console.log(`| default rules, inline | ${ms(stalls.inline)} | ${ms(recordedIn.inline)} |`);
console.log(`| default rules, on the thread | ${ms(stalls.thread)} | ${ms(recordedIn.thread)} |`);
await thread.close();
process.exit(0);
