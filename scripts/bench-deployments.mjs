#!/usr/bin/env node
// Part of `npm run bench`: what hosting a stdio MCP server as a Toolscope deployment adds to a
// call. The same program (server-everything in stdio mode, by its node entry) is called two ways
// by the official SDK client, one call at a time:
//   stdio direct   SDK client ─stdio─▶ program (StdioClientTransport, the program as its child)
//   deployed       SDK client ─HTTP─▶ Toolscope proxy /mcp/{key} (recording on) ─HTTP─▶ stdio bridge ─stdio─▶ program
// Calls alternate between the two, call by call, so the machine's noise falls on both alike; each
// round reports the medians and the ratio deployed/direct, and the verdict is the median ratio
// over the rounds. Toolscope runs in this process (PGlite in memory), so the client's own CPU
// shares its thread: the figure is an upper bound of the proxy's cost.
// Options (env): BENCH_DEPLOYMENT_CALLS (calls per side per round, default 300), BENCH_ROUNDS (default 3).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { requireSource as require } from './lib/tsSources.mjs';
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { openDatabase } = require('../src/server/db/database.ts');
const { migrate } = require('../src/server/db/migrate.ts');
const { buildApp } = require('../src/server/app.ts');
const { loadConfig, generateSecret } = require('../src/server/config.ts');

const CALLS = Number(process.env.BENCH_DEPLOYMENT_CALLS ?? 300);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

async function timedCall(client, i) {
  const began = performance.now();
  await client.callTool({ name: 'echo', arguments: { message: `call ${i}` } });
  return performance.now() - began;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-bench-deploy-'));
  const db = await openDatabase({});
  await migrate(db);
  const config = loadConfig(
    {},
    {
      secret: generateSecret(),
      clientDir: undefined,
      dataDir,
      deploymentsEnabled: true,
      healthIntervalMs: 3_600_000,
      logLevel: 'silent',
      deploymentPath: process.env.PATH ?? '/usr/bin:/bin',
    },
  );
  const app = await buildApp({ config, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const inject = async (method, url, payload, token) => {
    const res = await app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const password = 'correct horse battery staple';
  const { accessToken } = await inject('POST', '/api/v1/auth/register', {
    email: `bench-${Date.now()}@example.com`,
    password,
    passwordConfirmation: password,
    firstName: 'Bench',
    lastName: 'Mark',
  });
  const { workspaces } = await inject('GET', '/api/v1/workspaces', undefined, accessToken);
  const deploymentConfig = await inject(
    'POST',
    '/api/v1/deployments/configs',
    { workspace_id: workspaces[0].id, name: 'everything', command: 'node', args: [ENTRY, 'stdio'] },
    accessToken,
  );
  const deployment = await inject(
    'POST',
    `/api/v1/deployments/configs/${deploymentConfig.id}/deploy`,
    undefined,
    accessToken,
  );
  for (let waited = 0; ; waited += 100) {
    const status = await inject('GET', `/api/v1/deployments/${deployment.id}/status`, undefined, accessToken);
    if (status.status === 'running') break;
    if (waited > 60_000) throw new Error(`the deployment did not run: ${status.status} ${status.lastError}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const configs = await inject(
    'GET',
    `/api/v1/deployment-configs?workspace_id=${workspaces[0].id}`,
    undefined,
    accessToken,
  );
  const proxyUrl = new URL(new URL(configs[0].proxyUrl).pathname, base);

  const direct = new Client({ name: 'bench-direct', version: '1' });
  await direct.connect(
    new StdioClientTransport({ command: process.execPath, args: [ENTRY, 'stdio'], stderr: 'ignore' }),
  );
  const deployed = new Client({ name: 'bench-deployed', version: '1' });
  await deployed.connect(new StreamableHTTPClientTransport(proxyUrl));
  // Warm both paths (JIT, connection pools, the recorder's first writes).
  for (let i = 0; i < 50; i++) {
    await timedCall(direct, i);
    await timedCall(deployed, i);
  }

  console.log(`server-everything echo, ${CALLS} calls per side per round, 1 client, calls alternating`);
  console.log(
    'round | stdio direct median / p99 (ms) | deployed median / p99 (ms) | added median (ms) | ratio (median)',
  );
  const ratios = [];
  const added = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const d = [];
    const p = [];
    for (let i = 0; i < CALLS; i++) {
      if ((i + round) % 2 === 0) {
        d.push(await timedCall(direct, i));
        p.push(await timedCall(deployed, i));
      } else {
        p.push(await timedCall(deployed, i));
        d.push(await timedCall(direct, i));
      }
    }
    const ratio = median(p) / median(d);
    ratios.push(ratio);
    added.push(median(p) - median(d));
    console.log(
      `${round} | ${median(d).toFixed(3)} / ${percentile(d, 0.99).toFixed(3)} | ${median(p).toFixed(3)} / ${percentile(p, 0.99).toFixed(3)} | ${(median(p) - median(d)).toFixed(3)} | ${ratio.toFixed(2)}x`,
    );
  }
  console.log(
    `verdict: a deployed server answers in ${median(ratios).toFixed(2)}x the time of calling it over stdio directly (median of ${ROUNDS} rounds; +${median(added).toFixed(2)} ms per call)`,
  );

  await direct.close();
  await deployed.close();
  await app.close();
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
