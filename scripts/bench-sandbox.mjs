#!/usr/bin/env node
// Part of `npm run bench`: what the deployments' sandbox (bubblewrap, issue 30) adds to a tool call
// and to a start. The same program (server-everything in stdio mode) is called over stdio by the
// official SDK client two ways, one call at a time, alternating call by call so the machine's
// noise falls on both alike:
//   direct      SDK client ─stdio─▶ program
//   sandboxed   SDK client ─stdio─▶ prlimit ▶ bwrap (the argv a deployment gets: sandboxArgv, its
//               namespaces, mounts, uid drop and limits; no network) ▶ program
// A small launcher hands bwrap the deployment's folder as fd 3, as the watchdog does; the pipes
// reach the program itself (inherited), so the data path holds no extra copy. Also timed: from
// spawn to the first answer (initialize), direct vs sandboxed. Needs bwrap; as root, setpriv too.
// Options (env): BENCH_SANDBOX_CALLS (calls per side per round, default 300), BENCH_ROUNDS (default 3).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { requireSource as require } from './lib/tsSources.mjs';
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { sandboxArgv, sandboxUid, defaultReadOnlyPaths } = require('../src/server/deployments/sandbox.ts');
const { detectHostTools, missingSandbox } = require('../src/server/deployments/hostIsolation.ts');

const CALLS = Number(process.env.BENCH_SANDBOX_CALLS ?? 300);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const STARTS = 10;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const UID_BASE = 200_000;

// The launcher: opens the folder as fd 3 and runs the argv with the pipes it was given.
const LAUNCHER = `
const { spawn } = require('child_process');
const fs = require('fs');
const [argv, folder] = [JSON.parse(process.argv[1]), process.argv[2]];
const child = spawn(argv[0], argv.slice(1), { stdio: ['inherit', 'inherit', 'inherit', fs.openSync(folder, 'r')] });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
process.on('SIGTERM', () => child.kill('SIGTERM'));
`;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

function sandboxedTransport(tools, folder) {
  const asRoot = process.getuid?.() === 0;
  const hostUid = asRoot ? sandboxUid('bench-sandbox', UID_BASE) : null;
  if (hostUid !== null) fs.chownSync(folder, hostUid, UID_BASE);
  const argv = sandboxArgv(tools, {
    command: process.execPath,
    args: [ENTRY, 'stdio'],
    limits: {},
    relativeCwd: '',
    readOnlyPaths: defaultReadOnlyPaths(root),
    hostUid,
    hostGid: UID_BASE,
    network: null,
  });
  return new StdioClientTransport({
    command: process.execPath,
    args: ['-e', LAUNCHER, JSON.stringify(argv), folder],
    env: { PATH: '/usr/bin:/bin' },
    stderr: 'ignore',
  });
}

const directTransport = () =>
  new StdioClientTransport({ command: process.execPath, args: [ENTRY, 'stdio'], stderr: 'ignore' });

async function connected(transport, name) {
  const client = new Client({ name, version: '1' });
  const began = performance.now();
  await client.connect(transport);
  return { client, startMs: performance.now() - began };
}

async function timedCall(client, i) {
  const began = performance.now();
  await client.callTool({ name: 'echo', arguments: { message: `call ${i}` } });
  return performance.now() - began;
}

async function main() {
  const tools = detectHostTools(process.env.PATH);
  const missing = missingSandbox(tools, process.getuid?.() === 0);
  if (missing) {
    console.log(`SKIPPED: ${missing}`);
    return;
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-bench-sandbox-'));
  try {
    // Starts: spawn to the answer of initialize, alternating.
    const starts = { direct: [], sandboxed: [] };
    for (let i = 0; i < STARTS; i++) {
      for (const side of ['direct', 'sandboxed']) {
        const { client, startMs } = await connected(
          side === 'direct' ? directTransport() : sandboxedTransport(tools, folder),
          `bench-start-${side}`,
        );
        starts[side].push(startMs);
        await client.close();
      }
    }
    console.log(
      `start to first answer (median of ${STARTS}): direct ${median(starts.direct).toFixed(0)} ms, sandboxed ${median(starts.sandboxed).toFixed(0)} ms, ratio ${(median(starts.sandboxed) / median(starts.direct)).toFixed(2)}`,
    );

    const direct = (await connected(directTransport(), 'bench-direct')).client;
    const sandboxed = (await connected(sandboxedTransport(tools, folder), 'bench-sandboxed')).client;
    for (let i = 0; i < 50; i++) {
      await timedCall(direct, i);
      await timedCall(sandboxed, i);
    }
    console.log(`server-everything echo over stdio, ${CALLS} calls per side per round, calls alternating`);
    console.log('round | direct median / p99 (ms) | sandboxed median / p99 (ms) | ratio (median)');
    const ratios = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const times = { direct: [], sandboxed: [] };
      for (let i = 0; i < CALLS; i++) {
        times.direct.push(await timedCall(direct, i));
        times.sandboxed.push(await timedCall(sandboxed, i));
      }
      const ratio = median(times.sandboxed) / median(times.direct);
      ratios.push(ratio);
      console.log(
        `${round} | ${median(times.direct).toFixed(3)} / ${percentile(times.direct, 0.99).toFixed(3)} | ${median(times.sandboxed).toFixed(3)} / ${percentile(times.sandboxed, 0.99).toFixed(3)} | ${ratio.toFixed(3)}`,
      );
    }
    console.log(
      `verdict: a call in the sandbox takes ${median(ratios).toFixed(3)}× a direct one (median ratio over ${ROUNDS} rounds)`,
    );
    await direct.close();
    await sandboxed.close();
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

await main();
