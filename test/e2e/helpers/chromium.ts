import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { registerStopper } from './processRegistry';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const DEVTOOLS = /DevTools listening on (ws:\/\/\S+)/;
// TOOLCHAIN.md: the flags that keep Debian's Chromium quiet, offline and sandbox-free in a container.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the journeys can run. Without Chromium the suite fails in CI (process.env.CI) and
 * says why everywhere else (`apt-get install -y chromium`).
 */
export function chromiumAvailability(): { available: true } | { available: false; reason: string } {
  if (fs.existsSync(CHROMIUM_PATH)) return { available: true };
  const reason = `${CHROMIUM_PATH} not found: the browser journeys need Debian's Chromium (apt-get update && apt-get install -y chromium).`;
  if (process.env.CI) throw new Error(`CI: ${reason}`);
  return { available: false, reason };
}

export interface RunningBrowser {
  browser: Browser;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * Starts Chromium ourselves (so we hold its pid) with a fresh profile, then drives it with
 * playwright-core over the DevTools protocol.
 */
export async function launchChromium(timeoutMs = 30_000): Promise<RunningBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-chromium-'));
  // Its own process group: the renderers and helpers go down with it.
  const child = spawn(
    CHROMIUM_PATH,
    [...FLAGS, `--user-data-dir=${userDataDir}`, '--remote-debugging-port=0', 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid!;
  let browser: Browser | null = null;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      const force = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, 10_000);
      await exited;
      clearTimeout(force);
    }
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  const unregister = registerStopper(stop);
  let stderr = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Chromium did not start within ${timeoutMs} ms:\n${stderr}`)),
      timeoutMs,
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = DEVTOOLS.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with code ${code}:\n${stderr}`));
    });
  });
  const connected = await chromium.connectOverCDP(endpoint);
  browser = connected;

  return {
    browser: connected,
    pid,
    stop: async () => {
      unregister();
      await stop();
    },
  };
}
