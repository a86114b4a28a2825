#!/usr/bin/env node
// Prints the gzip size of the JavaScript a first visit to /login downloads before it can show
// the form: the entry chunk, the login page chunk, and every chunk they import statically
// (transitively). Lazy chunks of other routes are not counted. Reads dist/client, so run
// `npm run build` (or `npm run build:client`) first.
//
//   node scripts/bundle-report.mjs [--json] [--budget-kb 200]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(root, 'dist', 'client');
const manifestPath = path.join(clientDir, '.vite', 'manifest.json');
const LOGIN_PAGE_SOURCE = 'src/client/features/auth/pages/LoginPage.tsx';
/** Lazy modules every page requests right after the first render (they render nothing). */
const AFTER_FIRST_RENDER_SOURCES = [
  'src/client/features/auth/TokenLifecycle.tsx',
  'src/client/components/toast/ToastHost.tsx',
];
const DEFAULT_BUDGET_KB = 200;

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const budgetIndex = args.indexOf('--budget-kb');
const budgetKb = budgetIndex >= 0 ? Number(args[budgetIndex + 1]) : DEFAULT_BUDGET_KB;

if (!fs.existsSync(manifestPath)) {
  console.error(`bundle-report: ${path.relative(root, manifestPath)} is missing; run \`npm run build\` first.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  console.error('bundle-report: the manifest has no entry chunk.');
  process.exit(1);
}
if (!manifest[LOGIN_PAGE_SOURCE]) {
  console.error(`bundle-report: no chunk for ${LOGIN_PAGE_SOURCE}; is the login route still lazy-loaded?`);
  process.exit(1);
}

/** The chunk keys loaded with `keys`: each one plus its static imports, transitively. */
function staticClosure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

function measure(keys) {
  const chunks = [...keys].map((key) => {
    const file = manifest[key].file;
    const bytes = fs.readFileSync(path.join(clientDir, file));
    return { chunk: key, file, rawBytes: bytes.length, gzipBytes: zlib.gzipSync(bytes, { level: 9 }).length };
  });
  chunks.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    chunks,
    gzipBytes: chunks.reduce((sum, c) => sum + c.gzipBytes, 0),
    rawBytes: chunks.reduce((sum, c) => sum + c.rawBytes, 0),
  };
}

const initialKeys = staticClosure([entryKey, LOGIN_PAGE_SOURCE]);
const initial = measure(initialKeys);
const deferredKeys = [...staticClosure(AFTER_FIRST_RENDER_SOURCES.filter((key) => manifest[key]))].filter(
  (key) => !initialKeys.has(key),
);
const deferred = measure(deferredKeys);
// KB = 1000 bytes, as Vite prints them (the stricter reading of "200 KB").
const kb = (bytes) => (bytes / 1000).toFixed(1);
const withinBudget = initial.gzipBytes <= budgetKb * 1000;

if (asJson) {
  console.log(
    JSON.stringify(
      {
        route: '/login',
        budgetKb,
        withinBudget,
        initial,
        afterFirstRender: deferred,
        totalGzipBytes: initial.gzipBytes + deferred.gzipBytes,
      },
      null,
      2,
    ),
  );
} else {
  const line = (c) =>
    console.log(`  ${kb(c.gzipBytes).padStart(7)} kB gzip  ${kb(c.rawBytes).padStart(7)} kB raw  ${c.file}`);
  console.log('Bundle: initial JavaScript of /login (entry + login chunk + their static imports)');
  initial.chunks.forEach(line);
  console.log(`  ${'-'.repeat(64)}`);
  console.log(
    `  ${kb(initial.gzipBytes).padStart(7)} kB gzip  ${kb(initial.rawBytes).padStart(7)} kB raw  initial total (budget ${budgetKb} kB gzip: ${withinBudget ? 'within' : 'OVER'})`,
  );
  if (deferred.chunks.length > 0) {
    console.log('Fetched right after the first render, not blocking it (token lifecycle, toast area):');
    deferred.chunks.forEach(line);
    console.log(
      `  ${kb(deferred.gzipBytes).padStart(7)} kB gzip  total after first render; everything: ${kb(initial.gzipBytes + deferred.gzipBytes)} kB gzip`,
    );
  }
}
process.exitCode = withinBudget ? 0 : 2;
