import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerStopper } from './processRegistry';

const ROOT = path.resolve(__dirname, '../../..');
const SERVER_ENTRY = path.join(ROOT, 'dist/node/server/main.js');
const CLIENT_INDEX = path.join(ROOT, 'dist/client/index.html');
const LISTENING = /listening on (http:\/\/[^\s"]+)/;

export interface BuiltApp {
  baseUrl: string;
  pid: number;
  /** Everything the server printed, for the failure message of a journey. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the BUILT app the way `npm start` runs it (node dist/node/server/main.js) on a free
 * port of 127.0.0.1 with a fresh data directory. `env` adds settings such as TOOLSCOPE_FLAGS.
 */
export async function startBuiltApp(
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  options: { dataDir?: string } = {},
): Promise<BuiltApp> {
  for (const file of [SERVER_ENTRY, CLIENT_INDEX]) {
    if (!fs.existsSync(file))
      throw new Error(`${path.relative(ROOT, file)} is missing: run \`npm run build\` before the browser journeys.`);
  }
  // A given data dir outlives this process (a restart test starts the app on it again).
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: '0',
      HOST: '127.0.0.1',
      TOOLSCOPE_DATA_DIR: dataDir,
      TOOLSCOPE_LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid!, 'SIGTERM');
      const force = setTimeout(() => child.exitCode === null && process.kill(child.pid!, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    }
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const unregister = registerStopper(stop);

  const baseUrl = await new Promise<string>((resolve, reject) => {
    if (!child.pid) reject(new Error('could not spawn the app'));
    const timer = setTimeout(
      () => reject(new Error(`the app did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with code ${code} before listening:\n${output}`));
    });
  });

  return {
    baseUrl,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      unregister();
      await stop();
    },
  };
}
