import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { descendantsOf, isStillRunning, type ProcessEntry } from '../../src/demo/processTree';
import { chromiumAvailability, launchChromium, type RunningBrowser } from './helpers/chromium';
import { registerStopper, stopEverythingStarted } from './helpers/processRegistry';
import { recordPageProblems } from './helpers/journey';
import { screenshotIfAsked } from './helpers/screenshots';

// Issue 23 as a newcomer meets it: `npm run demo` (scripts/demo.mjs on the build, as `npm run demo`
// runs it after building) prints a URL and credentials; signing in with them in Chromium shows a
// dashboard with non-zero numbers; Ctrl-C (SIGINT to the demo's process only, so the demo must stop
// its children itself) leaves no process behind and deletes its data dir.
jest.setTimeout(480_000);

const ROOT = path.resolve(__dirname, '../..');
const browserAvailable = chromiumAvailability();
if (!browserAvailable.available) console.warn(`The demo's browser journey is not run: ${browserAvailable.reason}`);
const itInBrowser = browserAvailable.available ? it : it.skip;

describe('npm run demo', () => {
  let demo: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;
  let baseUrl = '';
  let email = '';
  let password = '';
  let dataDir = '';
  let chromium: RunningBrowser | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  const problems: string[] = [];
  const startedAt = Date.now();

  const waitForOutput = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the demo did not print ${pattern} within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const check = () => {
        const match = pattern.exec(output);
        if (match) {
          clearTimeout(timer);
          demo.stdout!.off('data', check);
          resolve(match);
        }
      };
      demo.stdout!.on('data', check);
      check();
    });

  beforeAll(async () => {
    for (const file of ['dist/node/demo/runDemo.js', 'dist/client/index.html']) {
      if (!fs.existsSync(path.join(ROOT, file)))
        throw new Error(`${file} is missing: run \`npm run build\` before the browser journeys.`);
    }
    demo = spawn(process.execPath, ['scripts/demo.mjs', '--no-build', '--port', '0'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => demo.once('exit', (code) => resolve(code)));
    registerStopper(() => {
      if (demo.exitCode !== null || demo.signalCode !== null) return Promise.resolve();
      const left = descendantsOf(demo.pid!);
      demo.kill('SIGKILL');
      for (const entry of left) if (isStillRunning(entry)) process.kill(entry.pid, 'SIGKILL');
      return Promise.resolve();
    });
    const collect = (chunk: Buffer) => void (output += chunk.toString());
    demo.stdout!.on('data', collect);
    demo.stderr!.on('data', collect);
    // A loaded machine (other suites) can take minutes to start the built app.
    [, baseUrl] = await waitForOutput(/Dashboard\s+(http:\/\/\S+)\/dashboard/, 300_000);
    [, email] = await waitForOutput(/Email\s+(\S+)/, 1_000);
    [, password] = await waitForOutput(/Password\s+(\S+)/, 1_000);
    [, dataDir] = await waitForOutput(/Data\s+(\S+)/, 1_000);
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await chromium?.stop();
    await stopEverythingStarted();
  });

  it('says within a minute that the first call is recorded and every screen has data', async () => {
    const [, live] = await waitForOutput(/Live: the first tool call is on the dashboard, ([\d.]+) s/, 120_000);
    const [, ready] = await waitForOutput(/Every screen has data, ([\d.]+) s/, 120_000);
    // The figures of a run on this machine (docs/benchmarks.md): printed, not asserted, as the
    // machine is shared with other suites.
    console.log(
      `demo: first call after ${live} s, every screen after ${ready} s (spawn to output: ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
    );
    expect(output).not.toMatch(/The demo failed/);
    expect(output).not.toMatch(/\[agent\]/);
  });

  itInBrowser('signs in with the printed credentials and shows a dashboard with non-zero numbers', async () => {
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    recordPageProblems(page, problems);
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${baseUrl}/dashboard`);
    for (const label of ['Tool calls today', 'Sessions today']) {
      await page.waitForFunction(
        (l) => Number(document.querySelector(`[data-testid="stat-${l}"]`)?.textContent ?? '0') > 0,
        label,
        { timeout: 30_000 },
      );
    }
    await page.getByRole('list', { name: 'Latest tool calls' }).waitFor();
    await page.getByRole('status', { name: 'Live: connected' }).waitFor();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(500);
    await screenshotIfAsked(page, 'demo-dashboard');
    expect(problems).toEqual([]);
  });

  it('stops every process it started on SIGINT, and deletes its data dir', async () => {
    const started: ProcessEntry[] = descendantsOf(demo.pid!);
    // Toolscope, the deployment's watchdog and server-everything at least.
    expect(started.length).toBeGreaterThanOrEqual(3);
    demo.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(0);
    expect(output).toMatch(/Stopped: the \d+ processes the demo started are gone\./);
    expect(started.filter(isStillRunning)).toEqual([]);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
