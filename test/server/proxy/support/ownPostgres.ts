import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A PostgreSQL server of the test's own, which the test may stop and start (the shared one must
// never go down under other tests): initdb and pg_ctl from `pg_config --bindir`, run as the
// postgres user (PostgreSQL refuses to run as root) in a temporary folder it owns, on a free port.
export interface OwnPostgres {
  url: string;
  stop(): void;
  start(): void;
  remove(): void;
}

/** Why an own PostgreSQL cannot be started here, or null when it can. */
export function ownPostgresUnavailable(): string | null {
  let bindir: string;
  try {
    bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return 'pg_config is not installed';
  }
  for (const tool of ['initdb', 'pg_ctl'])
    if (!fs.existsSync(path.join(bindir, tool))) return `${tool} is not in ${bindir}`;
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    execFileSync('which', ['runuser'], { stdio: 'ignore' });
  } catch {
    return 'there is no postgres user or no runuser';
  }
  return null;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-pg-'));
  execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asPostgres = (tool: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(bindir, tool), ...args], {
      cwd: dir,
      stdio: 'pipe',
      timeout: 60_000,
    });
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () =>
    void asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // immediate: the server goes as in an outage, connections cut without a goodbye.
    stop: () => void asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    remove: () => {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
