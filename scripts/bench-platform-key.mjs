#!/usr/bin/env node
// Part of `npm run bench`: what checking a platform key adds to a proxy request. The proxy's check
// (AgentAccess.check, from the built server in dist/node: `npm run build:server`) runs on every
// request before it is forwarded; it reads memory only. Measured in one process, interleaved call
// by call: a request with no key (switch off), with a valid key (hash + constant-time compare), and
// a made-up key (refused). Prints the p50 of each, the p50 added by a key, and the ratio of that
// to the proxy's own added p50 (BENCH_PROXY_ADDED_P50_MS, 0.25 ms from docs/benchmarks.md).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { AgentAccess } = require(path.join(root, 'dist/node/server/proxy/agentAccess.js'));
const { generatePlatformKeySecret, hashPlatformKey, platformKeyPrefix } = require(
  path.join(root, 'dist/node/server/auth/platformKeySecret.js'),
);

const ROUNDS = Number(process.env.BENCH_KEY_CHECKS ?? 200_000);
const PROXY_ADDED_P50_MS = Number(process.env.BENCH_PROXY_ADDED_P50_MS ?? 0.25);
const workspaceId = '00000000-0000-4000-8000-000000000001';
const serverId = '00000000-0000-4000-8000-000000000002';

// 1,000 keys in memory, as a busy instance would hold; the check never touches the database.
const keys = Array.from({ length: 1000 }, (_, i) => {
  const secret = generatePlatformKeySecret();
  return {
    secret,
    row: {
      id: `k${i}`,
      workspace_id: workspaceId,
      prefix: platformKeyPrefix(secret),
      secret_hash: hashPlatformKey(secret),
      all_servers: true,
      server_ids: [],
      expires_at: null,
      revoked_at: null,
    },
  };
});
const db = {
  query: async (sql) => (sql.includes('platform_keys') ? keys.map((k) => k.row) : []),
  listen: async () => async () => {},
  notify: async () => {},
};
const access = new AgentAccess(db);
await access.start();
await access.stop();

const target = { workspaceId, serverId };
const cases = {
  'no key': { 'content-type': 'application/json' },
  'valid key': { 'content-type': 'application/json', authorization: `Bearer ${keys[500].secret}` },
  'made-up key': { 'content-type': 'application/json', authorization: `Bearer ${generatePlatformKeySecret()}` },
};
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, new Float64Array(ROUNDS)]));
for (let i = 0; i < 5000; i++) for (const headers of Object.values(cases)) access.check(headers, target);
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, headers] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    access.check(headers, target);
    samples[name][i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
}
const p50 = (values) => Float64Array.from(values).sort()[Math.floor(values.length / 2)];
const result = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, p50(values)]));
const added = result['valid key'] - result['no key'];
console.log(`platform key check, ${ROUNDS} requests each, interleaved (p50, ms):`);
for (const [name, value] of Object.entries(result)) console.log(`  ${name.padEnd(12)} ${value.toFixed(4)}`);
console.log(`  added by a valid key: ${(added * 1000).toFixed(1)} µs at p50`);
console.log(`  = ${(added / PROXY_ADDED_P50_MS).toFixed(3)}× the proxy's own added p50 (${PROXY_ADDED_P50_MS} ms)`);
process.exit(0);
