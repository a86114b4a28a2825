import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerStopper } from './processRegistry';

// The built server (node dist/node/server/main.js, API only) as a child process the test may kill
// with any signal and start again on the same data dir or database: what an operator's crash,
// OOM kill or second instance is. Needs `npm run build:server` (or `npm run build`).
const ROOT = path.resolve(__dirname, '../../..');
const SERVER_ENTRY = path.join(ROOT, 'dist/node/server/main.js');
const LISTENING = /listening on (http:\/\/[^\s"]+)/;

export interface AppProcess {
  baseUrl: string;
  pid: number;
  output: () => string;
  /** Sends the signal and waits for the process to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export function serverBuildMissing(): string | null {
  return fs.existsSync(SERVER_ENTRY)
    ? null
    : `${path.relative(ROOT, SERVER_ENTRY)} is missing: run \`npm run build:server\` first`;
}

export async function startAppProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<AppProcess> {
  const missing = serverBuildMissing();
  if (missing) throw new Error(missing);
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: '0',
      HOST: '127.0.0.1',
      TOOLSCOPE_CLIENT_DIR: '',
      TOOLSCOPE_LOG_LEVEL: 'info',
      TOOLSCOPE_HEALTH_INTERVAL_MS: '3600000',
      TOOLSCOPE_AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // Load journeys drive many agents from loopback: the per-address cap is proved in test/server/http/slowClients.test.ts.
      TOOLSCOPE_CONNECTIONS_PER_CLIENT: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const unregister = registerStopper(() => kill('SIGKILL'));
  void exited.then(unregister);
  const baseUrl = await new Promise<string>((resolve, reject) => {
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
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  return { baseUrl, pid: child.pid!, output: () => output, kill };
}
