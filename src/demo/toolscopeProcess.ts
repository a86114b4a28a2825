import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { GiveUp, waitUntil } from './demoApi';

// Toolscope as `npm start` runs it (node dist/node/server/main.js), started by the demo as a child
// process. Its log stays quiet unless something goes wrong: error lines are shown as they come, the
// rest is kept (the last 200 lines) for the message when it fails to start.

export interface ToolscopeProcess {
  baseUrl: string;
  child: ChildProcess;
  exited: Promise<void>;
  recentOutput(): string;
  /** SIGTERM (Toolscope's graceful shutdown), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The demo's own instance: a fresh database and URLs on its own listener, whatever the shell says
 * (a DATABASE_URL meant for `npm start` must not receive demo data; a TOOLSCOPE_PUBLIC_URL would
 * hand the agent proxy URLs of another address).
 */
function demoEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  delete rest.DATABASE_URL;
  delete rest.TOOLSCOPE_PUBLIC_URL;
  delete rest.TOOLSCOPE_DATA_DIR;
  return rest;
}

/** Whether `port` can be listened on at 127.0.0.1 now. */
export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function startToolscope(
  root: string,
  port: number,
  env: Partial<Record<string, string>>,
  onError: (line: string) => void,
): Promise<ToolscopeProcess> {
  const host = env.HOST ?? '127.0.0.1';
  const child = spawn(process.execPath, [path.join(root, 'dist/node/server/main.js')], {
    cwd: root,
    env: { ...demoEnvironment(process.env), ...env, PORT: String(port), HOST: host },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const onLine = (line: string) => {
    lines.push(line);
    if (lines.length > 200) lines.shift();
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) >= 50) onError(`${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`);
    } catch {
      if (line.trim()) onError(line);
    }
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      parts.forEach(onLine);
    });
  }

  const listenHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const baseUrl = `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`;
  const stop = async (graceMs = 20_000) => {
    if (exitCode !== undefined) return;
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(force);
  };
  try {
    await waitUntil(
      'Toolscope to answer /api/health',
      async () => {
        if (exitCode !== undefined) throw new GiveUp(`Toolscope exited with code ${exitCode}`);
        const res = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
        return res?.ok ? true : undefined;
      },
      180_000,
      200,
    );
  } catch (error) {
    await stop(5_000);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${lines.join('\n')}`);
  }
  return { baseUrl, child, exited, recentOutput: () => lines.join('\n'), stop };
}
