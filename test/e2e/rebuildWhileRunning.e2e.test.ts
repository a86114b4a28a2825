import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startBuiltApp, type BuiltApp } from './helpers/builtApp';
import { launchChromium, type RunningBrowser } from './helpers/chromium';
import { closeBrowserAndApp, describeWhenChromium } from './helpers/journey';

// Issue 14 item 7: a second `npm run build` while the app runs must not pull files from under it
// (scripts/build-client.mjs keeps earlier hashed assets and swaps index.html last; the server looks
// files up per request), and a page whose lazy chunk cannot be loaded shows a message with a
// reload button, never a blank page. The rebuild gets another VITE_BUILD_ID, so its hashed file
// names really differ from the running page's (as after a code change).
const describeInBrowser = describeWhenChromium();

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '../..');
const MANIFEST = path.join(ROOT, 'dist/client/.vite/manifest.json');

interface ManifestChunk {
  file: string;
  css?: string[];
  assets?: string[];
  isEntry?: boolean;
}

/** Every file the built page may load (its entry and every lazy chunk, with their CSS and assets). */
function assetsOfCurrentBuild(): { entry: string; files: string[] } {
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
  const chunks = Object.values(manifest);
  const files = new Set(chunks.flatMap((chunk) => [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]));
  return { entry: chunks.find((chunk) => chunk.isEntry)!.file, files: [...files] };
}

function npmRunBuild(buildId: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build'], {
      cwd: ROOT,
      env: { ...process.env, VITE_BUILD_ID: buildId },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`npm run build exited with ${code}:\n${output}`)),
    );
  });
}

describeInBrowser('building beside a running instance', () => {
  let app: BuiltApp;
  let chromium: RunningBrowser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startBuiltApp();
    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await closeBrowserAndApp(context, chromium, app);
  });

  it('leaves every asset of the running page loadable after a second npm run build', async () => {
    await page.goto(`${app.baseUrl}/login`);
    await page
      .getByRole('button', { name: /sign in/i })
      .first()
      .waitFor();
    const before = assetsOfCurrentBuild();
    const failedAssets: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/assets/') && response.status() >= 400)
        failedAssets.push(`${response.status()} ${response.url()}`);
    });

    await npmRunBuild(`rebuild-${Date.now()}`);
    const after = assetsOfCurrentBuild();
    // The build really produced other files (otherwise this test would prove nothing).
    expect(after.entry).not.toBe(before.entry);

    const unloadable: string[] = [];
    for (const file of before.files) {
      const res = await fetch(`${app.baseUrl}/${file}`);
      if (res.status !== 200) unloadable.push(`${res.status} ${file}`);
      await res.arrayBuffer();
    }
    expect(unloadable).toEqual([]);

    // The open page (not reloaded) still loads a lazy page of its own build…
    await page
      .getByRole('link', { name: /sign up|create an account|register/i })
      .first()
      .click();
    await page.waitForURL(/\/register$/);
    await page
      .getByRole('button', { name: /create account|sign up|register/i })
      .first()
      .waitFor();
    // …and a reload runs the new build, whose files the server serves without a restart.
    await page.reload();
    await page
      .getByRole('button', { name: /create account|sign up|register/i })
      .first()
      .waitFor();
    const scripts = await page.evaluate(() =>
      [...document.querySelectorAll('script[src]')].map((s) => (s as HTMLScriptElement).src),
    );
    expect(scripts.some((src) => src.endsWith(after.entry))).toBe(true);
    expect(failedAssets).toEqual([]);
    // A missing asset is a 404, not the SPA's HTML.
    const missing = await fetch(`${app.baseUrl}/assets/no-such-chunk-12345678.js`);
    expect(missing.status).toBe(404);
  });

  it('shows a reload message, not a blank page, when a lazy chunk cannot be loaded', async () => {
    const blocked = await context.newPage();
    await blocked.route(/\/assets\/RegisterPage-[^/]+\.js$/, (route) => route.abort());
    await blocked.goto(`${app.baseUrl}/register`);
    const alert = blocked.getByTestId('error-boundary');
    await alert.getByText('This page could not be loaded').waitFor();
    await expect(alert.innerText()).resolves.toContain('Reload to get the current version.');

    // The chunk is reachable again: the Reload button brings the page back.
    await blocked.unroute(/\/assets\/RegisterPage-[^/]+\.js$/);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await blocked
      .getByRole('button', { name: /create account|sign up|register/i })
      .first()
      .waitFor();
    await expect(blocked.getByTestId('error-boundary').count()).resolves.toBe(0);
    await blocked.close();
  });
});
