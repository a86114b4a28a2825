#!/usr/bin/env node
// `npm run bench`: runs every benchmark of the project in turn and prints their figures
// (docs/benchmarks.md records them). Each step is a script of its own; a step whose script is
// not there yet is reported and skipped, so the list can name benches before they land.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The benches, in the order they run. Add a bench here: { title, script, before? }. */
const STEPS = [
  {
    title: 'Bundle: initial JavaScript of /login',
    script: 'scripts/bundle-report.mjs',
    // The report reads the built client; build it when there is none.
    before: () => {
      if (fs.existsSync(path.join(root, 'dist/client/.vite/manifest.json'))) return 0;
      return run('npm', ['run', 'build:client']);
    },
  },
  { title: 'Sessions list at scale', script: 'scripts/bench-sessions.mjs' },
  {
    title: 'Analytics at 10M calls / 90 days, and what tokenizing costs the recorder',
    script: 'scripts/bench-analytics.mjs',
  },
  { title: 'Activity stream at 100 events/s in Chromium', script: 'scripts/bench-activity-stream.mjs' },
  // The MCP proxy bench (proxy engineer): scripts/bench-proxy.mjs.
  { title: 'MCP proxy', script: 'scripts/bench-proxy.mjs' },
  {
    title: 'Platform key check on the proxy path',
    script: 'scripts/bench-platform-key.mjs',
    before: () =>
      fs.existsSync(path.join(root, 'dist/node/server/proxy/agentAccess.js')) ? 0 : run('npm', ['run', 'build:server']),
  },
  {
    title: "Redaction on the recorder's path: recording with vs without the default rules (issue 35)",
    script: 'scripts/bench-redaction.mjs',
    before: () => run('npm', ['run', 'build:server']),
  },
  { title: 'MCP proxy: 1,000 sessions with open streams, proxy vs direct', script: 'scripts/bench-streams.mjs' },
  {
    title: "Flood isolation: one workspace's flood vs another's throughput (issue 18)",
    script: 'scripts/bench-flood.mjs',
  },
  {
    title: 'Deployments: a hosted stdio server through the proxy vs stdio directly',
    script: 'scripts/bench-deployments.mjs',
  },
  { title: "Deployments' sandbox: a call and a start in bubblewrap vs direct", script: 'scripts/bench-sandbox.mjs' },
  {
    title: 'Telemetry: an unreachable OTLP collector vs none, proxy latency and throughput',
    script: 'scripts/bench-telemetry.mjs',
  },
  {
    title:
      'Sustained ingest into PostgreSQL for 10 minutes with retention running (issue 33; needs BENCH_DATABASE_URL)',
    script: 'scripts/bench-ingest.mjs',
  },
];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

let failures = 0;
for (const step of STEPS) {
  console.log(`\n=== ${step.title} (${step.script})`);
  if (!fs.existsSync(path.join(root, step.script))) {
    console.log(`skipped: ${step.script} does not exist yet`);
    continue;
  }
  const prepared = step.before ? step.before() : 0;
  const status = prepared === 0 ? run(process.execPath, [step.script]) : prepared;
  if (status !== 0) {
    failures += 1;
    console.log(`FAILED: ${step.script} exited with ${status}`);
  }
}
process.exitCode = failures === 0 ? 0 : 1;
