#!/usr/bin/env node
// `npm run bench` step: what an unreachable OTLP collector costs the proxy (issue 22: "an
// unreachable collector never slows the proxy"). One Toolscope (in this process, PGlite in memory),
// one official-SDK upstream, one workspace. Each round measures the same traffic twice, once with
// the workspace's exporter disabled and once enabled and pointed at a black-hole collector (a TCP
// listener that accepts and never answers, so every export waits out its 10 s timeout), in an order
// swapped every round. The verdict is the median over rounds of the ratios within a round:
// p50 latency at 1 client (with / without) and throughput at 16 clients (with / without).
// Options (env): BENCH_ROUNDS (default 5), BENCH_SINGLE_CALLS (default 400), BENCH_CONCURRENT_CALLS (default 3000).
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { requireSource as require } from './lib/tsSources.mjs';

const { startProxyApp } = require('../test/server/proxy/support/proxyApp.ts');
const { startStreamableUpstream } = require('../test/server/proxy/support/sdkUpstream.ts');
const { bearer } = require('../test/server/helpers/accounts.ts');

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const SINGLE = Number(process.env.BENCH_SINGLE_CALLS ?? 400);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT_CALLS ?? 3000);
const CLIENTS = 16;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

// Accepts connections and never answers: the worst collector (a hung one), worse than a refused port.
const held = [];
const blackHole = net.createServer((socket) => held.push(socket));
await new Promise((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
const blackHoleUrl = `http://127.0.0.1:${blackHole.address().port}`;

const upstream = await startStreamableUpstream({ json: true, stateful: false });
const t = await startProxyApp({ telemetryMetricsIntervalMs: 1_000 });
const { proxyUrl } = await t.register(upstream.url);
// The bench sends more calls than a Starter month allows: the account is on the plan without a limit.
await t.database.db.query(
  `insert into subscriptions (user_id, plan) values ($1, 'enterprise') on conflict (user_id) do update set plan = 'enterprise'`,
  [t.account.user.id],
);
const ws = t.account.workspaceId;
const api = (method, url, payload) => t.app.inject({ method, url, headers: bearer(t.account.accessToken), payload });
const created = await api('POST', `/api/v1/workspaces/${ws}/telemetry/exporters`, {
  name: 'black hole',
  endpoint: blackHoleUrl,
  protocol: 'http/protobuf',
  enabled: false,
});
if (created.statusCode !== 201) throw new Error(`exporter: ${created.statusCode} ${created.body}`);
const exporterId = created.json().id;
const setExporter = async (enabled) => {
  const res = await api('PUT', `/api/v1/workspaces/${ws}/telemetry/exporters/${exporterId}`, { enabled });
  if (res.statusCode !== 200) throw new Error(`toggle: ${res.statusCode} ${res.body}`);
  await new Promise((r) => setTimeout(r, 200));
};

let nextId = 1;
async function call() {
  const started = performance.now();
  const res = await fetch(proxyUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'bench' } },
    }),
  });
  await res.text();
  if (res.status !== 200) throw new Error(`proxy answered ${res.status}`);
  return performance.now() - started;
}

async function phase() {
  const latencies = [];
  for (let i = 0; i < SINGLE; i++) latencies.push(await call());
  let left = CONCURRENT;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (left-- > 0) await call();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), throughput: CONCURRENT / seconds };
}

for (let i = 0; i < 50; i++) await call(); // warm-up
const rows = [];
for (let round = 0; round < ROUNDS; round++) {
  const result = {};
  for (const enabled of round % 2 === 0 ? [false, true] : [true, false]) {
    await setExporter(enabled);
    result[enabled ? 'on' : 'off'] = await phase();
  }
  rows.push(result);
  console.log(
    `round ${round + 1}: p50 ${result.off.p50.toFixed(2)} → ${result.on.p50.toFixed(2)} ms, ` +
      `throughput ${result.off.throughput.toFixed(0)} → ${result.on.throughput.toFixed(0)} calls/s`,
  );
}
await t.app.recorder.flush();
const metrics = (await api('GET', `/api/v1/workspaces/${ws}/telemetry/exporters/${exporterId}/metrics`)).json();

const latencyRatio = median(rows.map((r) => r.on.p50 / r.off.p50));
const p99Ratio = median(rows.map((r) => r.on.p99 / r.off.p99));
const throughputRatio = median(rows.map((r) => r.on.throughput / r.off.throughput));
console.log('\n| (median of rounds) | exporter off | exporter → black hole | ratio |');
console.log('|---|---|---|---|');
console.log(
  `| p50 at 1 client | ${median(rows.map((r) => r.off.p50)).toFixed(2)} ms | ${median(rows.map((r) => r.on.p50)).toFixed(2)} ms | ${latencyRatio.toFixed(2)}× |`,
);
console.log(
  `| p99 at 1 client | ${median(rows.map((r) => r.off.p99)).toFixed(2)} ms | ${median(rows.map((r) => r.on.p99)).toFixed(2)} ms | ${p99Ratio.toFixed(2)}× |`,
);
console.log(
  `| throughput at ${CLIENTS} clients | ${median(rows.map((r) => r.off.throughput)).toFixed(0)}/s | ${median(rows.map((r) => r.on.throughput)).toFixed(0)}/s | ${throughputRatio.toFixed(2)}× |`,
);
console.log(`\nexporter counters: ${JSON.stringify(metrics)}; connections the black hole held: ${held.length}`);
console.log(
  `verdict: ${latencyRatio <= 1.1 && throughputRatio >= 0.9 ? 'unchanged within 10%' : 'CHANGED by more than 10%'}`,
);

for (const socket of held) socket.destroy();
blackHole.close();
await t.close();
await upstream.close();
process.exit(0);
