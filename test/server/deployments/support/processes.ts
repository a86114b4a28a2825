import fs from 'node:fs';
import path from 'node:path';

// Counts live processes the way an operator would: every /proc entry whose environment holds the
// marker a test gave its deployment (the watchdog and the program both carry it).
export function processesWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const state = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) continue; // a zombie is no process
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const EVERYTHING_ENTRY = path.resolve(
  __dirname,
  '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const PRINT_ENV = path.resolve(__dirname, '../../../fixtures/deployments/print-env.js');
