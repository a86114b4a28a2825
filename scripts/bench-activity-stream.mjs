// `node scripts/bench-activity-stream.mjs`: is /activity-stream smooth while 100 tool calls per
// second arrive? Starts the real app (TypeScript sources, in-memory PGlite) serving a fresh Vite
// build of the SPA, signs a user in, opens the page in headless Chromium, then for 30 s feeds the
// proxy's recorder 100 tool calls/s (request + result each). Chromium reports long tasks
// (> 50 ms) and the frames it painted (requestAnimationFrame callbacks); the script prints them
// and whether the page was fed by the live stream or by its polling fallback.
// Needs /usr/bin/chromium (see docs/operations.md). Env: BENCH_SECONDS (30), BENCH_RATE (100).
/* global window, document, requestAnimationFrame -- the page.evaluate bodies run in the browser */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { requireSource as require } from './lib/tsSources.mjs';

const root = new URL('..', import.meta.url).pathname;
const { chromium } = require('playwright-core');
const { openDatabase } = require('../src/server/db/database.ts');
const { migrate } = require('../src/server/db/migrate.ts');
const { buildApp } = require('../src/server/app.ts');
const { loadConfig, generateSecret } = require('../src/server/config.ts');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RATE = Number(process.env.BENCH_RATE ?? 100);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-activity-bench-'));
const clientDir = path.join(work, 'client');
const build = spawnSync('npx', ['vite', 'build', '--outDir', clientDir, '--emptyOutDir', '--logLevel', 'error'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const db = await openDatabase({});
await migrate(db);
const config = loadConfig({}, { secret: generateSecret(), clientDir, healthIntervalMs: 3_600_000 });
const app = await buildApp({ config, db });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const password = 'correct horse battery staple';
const registered = await app.inject({
  method: 'POST',
  url: '/api/v1/auth/register',
  payload: {
    email: 'bench@example.com',
    password,
    passwordConfirmation: password,
    firstName: 'Bench',
    lastName: 'User',
  },
});
const { accessToken, refreshToken } = registered.json();
const workspaceId = (
  await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: { authorization: `Bearer ${accessToken}` } })
).json().workspaces[0].id;
const [server] = await db.query(
  `insert into servers (workspace_id, name, url, proxy_key, status) values ($1, 'bench-upstream', 'http://127.0.0.1:9/mcp', 'bench-activity-key', 'online') returning id`,
  [workspaceId],
);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await page.addInitScript(
    ({ accessToken, refreshToken, workspaceId }) => {
      localStorage.setItem('access_token', accessToken);
      localStorage.setItem('refresh_token', refreshToken);
      localStorage.setItem('toolscope.current_workspace_id', workspaceId);
    },
    { accessToken, refreshToken, workspaceId },
  );
  await page.goto(`${address}/activity-stream`);
  await page.getByRole('heading', { name: 'Activity Stream' }).waitFor();
  await page.waitForTimeout(2_000);
  await page.evaluate(() => {
    const w = window;
    w.__bench = { longTasks: [], frames: 0, stop: false };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
    const tick = () => {
      if (w.__bench.stop) return;
      w.__bench.frames += 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });

  // The burst: the recorder gets exactly what the proxy would hand it for each call.
  const session = app.recorder.startSession(
    { workspaceId, serverId: server.id, serverName: 'bench-upstream' },
    { transport: 'streamable-http', mcpSessionId: 'bench', clientName: 'bench-agent', clientVersion: '1.0.0' },
  );
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * RATE);
    for (; sent < due; sent++) {
      app.recorder.record(
        session,
        'client_to_server',
        {
          jsonrpc: '2.0',
          id: sent,
          method: 'tools/call',
          params: { name: `tool_${sent % 7}`, arguments: { n: sent } },
        },
        120,
      );
      app.recorder.record(
        session,
        'server_to_client',
        { jsonrpc: '2.0', id: sent, result: { content: [{ type: 'text', text: `result ${sent}` }] } },
        160,
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await app.recorder.flush();
  await page.waitForTimeout(4_000);
  const result = await page.evaluate(() => {
    const w = window;
    w.__bench.stop = true;
    const live = [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.startsWith('Live:'));
    return {
      longTasks: w.__bench.longTasks,
      frames: w.__bench.frames,
      rows: document.querySelectorAll('[aria-label="Activity"] [role="listitem"]').length,
      live,
    };
  });
  const elapsed = (Date.now() - started) / 1000;
  const [{ stored }] = await db.query(`select count(*)::int as stored from tool_calls where workspace_id = $1`, [
    workspaceId,
  ]);
  const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? null);
  console.log(
    `activity stream bench — ${RATE} calls/s for ${SECONDS} s (${sent} calls sent, ${stored} stored), page fed by ${result.live ? 'the live stream' : 'polling (live stream not connected)'}`,
  );
  console.log(
    `frames painted: ${result.frames} in ${elapsed.toFixed(1)} s (${(result.frames / elapsed).toFixed(1)} fps)`,
  );
  console.log(
    `long tasks > 50 ms: ${result.longTasks.length}${result.longTasks.length ? ` (max ${Math.max(...result.longTasks).toFixed(0)} ms, total ${result.longTasks.reduce((a, b) => a + b, 0).toFixed(0)} ms)` : ''}`,
  );
  console.log(`rows rendered in the DOM at the end: ${result.rows} (virtualized; the feed holds at most 500)`);
  if (heap !== null) console.log(`JS heap used at the end: ${(heap / 1024 / 1024).toFixed(1)} MB`);
} finally {
  await browser.close();
  await app.close();
  await db.close();
  fs.rmSync(work, { recursive: true, force: true });
}
