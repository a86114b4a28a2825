#!/usr/bin/env node
// `npm run bench` step "MCP proxy: sessions with open streams": BENCH_STREAM_SESSIONS (default
// 1000) official-SDK client sessions, each holding its standalone GET stream open as the SDK does,
// against an official-SDK server (Streamable HTTP, SSE answers, stateful): first straight to the
// upstream, then through Toolscope (recording on, PGlite in memory). In each phase every session
// calls a tool BENCH_STREAM_CALLS times (default 3) at once with the others; printed: the streams
// open at the upstream, calls answered within BENCH_STREAM_CALL_TIMEOUT_MS (default 60000), p50
// and p95 latency, and the ratios proxy / direct. The upstream and Toolscope each run in a child
// process; the clients run here. Loopback only, bounded: one round of calls per phase.
import http from 'node:http';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { requireSource as require } from './lib/tsSources.mjs';

const SESSIONS = Number(process.env.BENCH_STREAM_SESSIONS ?? 1000);
const CALLS = Number(process.env.BENCH_STREAM_CALLS ?? 3);
const CALL_TIMEOUT_MS = Number(process.env.BENCH_STREAM_CALL_TIMEOUT_MS ?? 60_000);
const CONNECT_BATCH = 100;

async function upstreamChild() {
  const { z } = require('zod');
  const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const transports = new Map();
  let openStreams = 0;
  const server = http.createServer(async (req, res) => {
    if (req.method === 'GET') {
      openStreams++;
      res.once('close', () => openStreams--);
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? transports.get(sid) : undefined;
    if (!transport) {
      if (sid) return res.writeHead(404).end();
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
        onsessionclosed: (id) => transports.delete(id),
      });
      const mcp = new McpServer({ name: 'bench-streams-upstream', version: '1.0.0' });
      mcp.registerTool('echo', { description: 'Echoes', inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text }],
      }));
      await mcp.connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  server.keepAliveTimeout = 120_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  process.on('message', (message) => {
    if (message.type === 'streams') process.send({ type: 'streams', open: openStreams });
    if (message.type === 'exit') process.exit(0);
  });
  process.send({ type: 'ready', url: `http://127.0.0.1:${server.address().port}/mcp` });
}

async function toolscopeChild() {
  const { openDatabase } = require('../src/server/db/database.ts');
  const { migrate } = require('../src/server/db/migrate.ts');
  const { buildApp } = require('../src/server/app.ts');
  const { loadConfig, generateSecret } = require('../src/server/config.ts');
  const db = await openDatabase({});
  await migrate(db);
  // The bench measures capacity, not the tenant limits: every call of the run may be in flight at
  // once (the defaults, 1,000 per server and 2,000 per workspace, would refuse the rest by design,
  // with their JSON-RPC error), and the workspace is on the plan without a monthly call limit.
  const inFlight = SESSIONS * CALLS;
  const config = loadConfig(
    { TOOLSCOPE_LOG_LEVEL: 'silent' },
    {
      secret: generateSecret(),
      clientDir: undefined,
      healthIntervalMs: 3_600_000,
      callsInFlightPerServer: inFlight,
      callsInFlightPerWorkspace: inFlight,
    },
  );
  const app = await buildApp({ config, db });
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const [user] = await db.query(
    "insert into users (email, password_hash, first_name, last_name) values ('bench@example.com', 'x', 'B', 'B') returning id",
  );
  await db.query("insert into subscriptions (user_id, plan) values ($1, 'enterprise')", [user.id]);
  const [ws] = await db.query("insert into workspaces (name, owner_id) values ('Bench', $1) returning id", [user.id]);
  const key = 'bench-streams-key-000000000000000';
  const [server] = await db.query(
    'insert into servers (workspace_id, name, url, proxy_key) values ($1, $2, $3, $4) returning id',
    [ws.id, 'bench', process.env.BENCH_UPSTREAM_URL, key],
  );
  process.on('message', async (message) => {
    if (message.type === 'count') {
      await app.recorder.flush();
      const [{ stored }] = await db.query('select count(*)::int as stored from tool_calls where server_id = $1', [
        server.id,
      ]);
      process.send({ type: 'count', stored });
    }
    if (message.type === 'exit') {
      await app.close();
      await db.close();
      process.exit(0);
    }
  });
  process.send({ type: 'ready', url: `http://127.0.0.1:${app.server.address().port}/mcp/${key}` });
}

function child(role, env = {}) {
  const proc = fork(fileURLToPath(import.meta.url), [role], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m.type !== type) return;
        proc.off('message', onMessage);
        resolve(m);
      };
      proc.on('message', onMessage);
      proc.once('exit', (code) => reject(new Error(`${role} exited (${code})`)));
    });
  return {
    ready: next('ready'),
    ask: (type) => {
      const answer = next(type);
      proc.send({ type });
      return answer;
    },
    exit: () =>
      new Promise((r) => {
        proc.once('exit', r);
        proc.send({ type: 'exit' });
      }),
  };
}

const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

async function phase(name, url, upstream) {
  const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const clients = [];
  let connectFailures = 0;
  const started = performance.now();
  for (let i = 0; i < SESSIONS; i += CONNECT_BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(CONNECT_BATCH, SESSIONS - i) }, async (_, k) => {
        const client = new Client({ name: `bench-${i + k}`, version: '1' });
        try {
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          return client;
        } catch {
          connectFailures++;
          return null;
        }
      }),
    );
    clients.push(...batch.filter(Boolean));
  }
  // Streams open once each client's GET has reached the upstream (bounded wait).
  const deadline = Date.now() + 60_000;
  let open = 0;
  while (Date.now() < deadline) {
    open = (await upstream.ask('streams')).open;
    if (open >= clients.length) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const connectMs = performance.now() - started;
  const latencies = [];
  let answered = 0;
  const total = SESSIONS * CALLS;
  await Promise.all(
    clients.flatMap((client, i) =>
      Array.from({ length: CALLS }, async (_, k) => {
        const t0 = performance.now();
        try {
          const result = await client.callTool({ name: 'echo', arguments: { text: `${i}.${k}` } }, undefined, {
            timeout: CALL_TIMEOUT_MS,
          });
          if (result.content?.[0]?.text === `${i}.${k}`) {
            answered++;
            latencies.push(performance.now() - t0);
          }
        } catch {
          // Not answered: the count of answered calls says so.
        }
      }),
    ),
  );
  latencies.sort((a, b) => a - b);
  const openDuringCalls = (await upstream.ask('streams')).open;
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  const result = {
    name,
    sessions: SESSIONS,
    connected: clients.length,
    connectFailures,
    streamsOpen: Math.min(open, openDuringCalls),
    total,
    answered,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    connectMs,
  };
  console.log(
    `${name.padEnd(8)} sessions ${result.connected}/${SESSIONS} (streams open at the upstream: ${result.streamsOpen}), calls answered ${answered}/${total}, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms (connect ${(connectMs / 1000).toFixed(1)} s)`,
  );
  // Let the closed sessions' streams go before the next phase counts.
  const settle = Date.now() + 30_000;
  while (Date.now() < settle && (await upstream.ask('streams')).open > 0) await new Promise((r) => setTimeout(r, 200));
  return result;
}

async function main() {
  console.log(
    `${SESSIONS} SDK sessions with open GET streams, ${CALLS} calls each at once, call timeout ${CALL_TIMEOUT_MS} ms`,
  );
  const upstream = child('--upstream');
  const { url: upstreamUrl } = await upstream.ready;
  const toolscope = child('--toolscope', { BENCH_UPSTREAM_URL: upstreamUrl });
  const { url: proxyUrl } = await toolscope.ready;
  const direct = await phase('direct', upstreamUrl, upstream);
  const proxied = await phase('proxy', proxyUrl, upstream);
  const { stored } = await toolscope.ask('count');
  console.log(
    `ratio proxy/direct: calls answered ${(proxied.answered / direct.answered).toFixed(3)}, p95 ${(proxied.p95 / direct.p95).toFixed(2)}x; recorded calls ${stored}/${proxied.answered}`,
  );
  await toolscope.exit();
  await upstream.exit();
  process.exitCode = proxied.answered === proxied.total && direct.answered === direct.total ? 0 : 1;
}

const role = process.argv[2];
const run = role === '--upstream' ? upstreamChild : role === '--toolscope' ? toolscopeChild : main;
run().catch((error) => {
  console.error(error);
  process.exit(1);
});
