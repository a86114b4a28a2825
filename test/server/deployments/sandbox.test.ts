// Real sandboxed programs (bubblewrap) behind the real app: starting them takes seconds on a loaded machine.
jest.setTimeout(120_000);

import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DeploymentDto, DeploymentLogsResult } from '../../../src/contract/deployments';
import type { CatalogServerJson } from '../../../src/contract/marketplace';
import { packageLaunch } from '../../../src/contract/packageLaunch';
import bundledCatalog from '../../../src/server/modules/marketplace/bundledCatalog.json';
import { bearer, joinWorkspace, registerAccount, type TestAccount } from '../helpers/accounts';
import { buildTestApp } from '../helpers/testApp';
import { engineName, openTestDatabase } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { processesWithMarker, waitFor } from './support/processes';
import { sandboxAvailable } from './support/sandboxTools';

// The egress tests need slirp4netns (Debian package slirp4netns) beside bubblewrap.

const FIXTURES = path.resolve(__dirname, '../../fixtures/deployments');
const PROBE = path.join(FIXTURES, 'sandbox-probe.js');
const ORPHAN_MAKER = path.join(FIXTURES, 'orphan-maker.js');
const KEY_VALUE = 'sk-live-canary-0123456789abcdef';

// Issue 30: every attack an ordinary account tried, as a test against a real sandboxed deployment.
const describeSandboxed = sandboxAvailable('test/server/deployments/sandbox.test.ts') ? describe : describe.skip;

describeSandboxed(`deployments run in a sandbox (${engineName})`, () => {
  let t: ProxyTestApp;
  let member: TestAccount;
  let dataDir: string;
  let loopbackService: net.Server;
  let loopbackConnections = 0;
  const otherFile = () => path.join(dataDir, 'deployments', 'another-deployment', 'canary.txt');

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-sandbox-'));
    fs.writeFileSync(path.join(dataDir, 'secret.key'), 'CANARY-SECRET', { mode: 0o600 });
    fs.mkdirSync(path.join(dataDir, 'journal'));
    fs.mkdirSync(path.dirname(otherFile()), { recursive: true });
    fs.writeFileSync(otherFile(), 'OTHER-DEPLOYMENT-CANARY');
    loopbackService = net.createServer((socket) => {
      loopbackConnections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => loopbackService.listen(0, '127.0.0.1', resolve));
    // Exposed mode: private upstreams refused (no allow-all), as on a Toolscope others can reach.
    t = await startProxyApp({
      deploymentsEnabled: true,
      dataDir,
      deploymentStopGraceMs: 1_000,
      allowPrivateUpstreams: false,
    });
    member = await registerAccount(t.app);
    await joinWorkspace(t.app, t.account, t.account.workspaceId, member, 'member');
  });
  afterAll(async () => {
    try {
      await t.close();
    } finally {
      await new Promise((resolve) => loopbackService.close(resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token = t.account.accessToken) =>
    t.app.inject({ method, url, headers: bearer(token), payload: payload as Record<string, unknown> | undefined });

  async function deploy(body: Record<string, unknown>): Promise<DeploymentDto> {
    const created = await api('POST', '/api/v1/deployments/configs', { workspace_id: t.account.workspaceId, ...body });
    expect(created.statusCode).toBe(201);
    const deployed = await api('POST', `/api/v1/deployments/configs/${created.json().id}/deploy`);
    expect(deployed.statusCode).toBe(201);
    return deployed.json<DeploymentDto>();
  }
  const logsOf = async (id: string) =>
    (await api('GET', `/api/v1/deployments/${id}/logs`)).json<DeploymentLogsResult>().lines;

  it('reaches no secret file, data dir, Toolscope process, other deployment, host port or private address; key values are masked', async () => {
    const key = await api('POST', `/api/v1/workspaces/${t.account.workspaceId}/keys`, {
      name: 'API_TOKEN',
      value: KEY_VALUE,
    });
    expect(key.statusCode).toBe(201);
    const toolscopePort = Number(new URL(t.base).port);
    const deployment = await deploy({
      name: 'attacker',
      command: 'node',
      args: [PROBE],
      restartPolicy: 'never',
      env: {
        PROBE_SECRET_FILE: path.join(dataDir, 'secret.key'),
        PROBE_DATA_DIR: dataDir,
        PROBE_TOOLSCOPE_PID: String(process.pid),
        PROBE_OTHER_FILE: otherFile(),
        PROBE_KEY: '{{key:API_TOKEN}}',
        PROBE_CONNECT: JSON.stringify({
          toolscope: { host: '127.0.0.1', port: toolscopePort },
          loopbackService: { host: '127.0.0.1', port: (loopbackService.address() as net.AddressInfo).port },
          postgres: { host: '127.0.0.1', port: 5432 },
          privateRange: { host: '10.0.0.1', port: 80 },
          metadata: { host: '169.254.169.254', port: 80 },
        }),
      },
    });
    const lines = await waitFor('the probes', async () => {
      const all = await logsOf(deployment.id);
      return all.some((l) => l.text === 'PROBES DONE') ? all : undefined;
    });
    const probes = Object.fromEntries(
      lines
        .filter((l) => l.text.startsWith('PROBE '))
        .map((l) => {
          const [, name, ...outcome] = l.text.split(' ');
          return [name, outcome.join(' ')];
        }),
    );
    expect(probes.secretFile).toMatch(/^denied/);
    expect(probes.dataDir).toMatch(/^denied/);
    expect(probes.toolscopeEnviron).toMatch(/^denied/);
    expect(probes.otherDeployment).toMatch(/^denied/);
    expect(probes.systemWrite).toMatch(/^denied/);
    // Its own PID namespace: bwrap's init and the program, nothing of the host.
    expect(Number(probes.processes.split(' ')[1])).toBeLessThanOrEqual(3);
    // An unprivileged uid: its own on the host when Toolscope is root, else 1000 in a user namespace.
    const uid = Number(probes.uid.split(' ')[1]);
    if (process.getuid?.() === 0) expect(uid).toBeGreaterThanOrEqual(200_000);
    else expect(uid).toBe(1000);
    expect(probes.ownFolder).toBe('ok mine');
    expect(probes.envNames).toBe(
      'ok HOME,PATH,PROBE_CONNECT,PROBE_DATA_DIR,PROBE_KEY,PROBE_OTHER_FILE,PROBE_SECRET_FILE,PROBE_TOOLSCOPE_PID,PWD',
    );
    for (const target of ['toolscope', 'loopbackService', 'postgres', 'privateRange', 'metadata'])
      expect(probes[`connect_${target}`]).toMatch(/^denied/);
    expect(loopbackConnections).toBe(0);
    // What it wrote stayed in its own folder, owned by its own uid on the host when Toolscope is root.
    const created = (await api('GET', `/api/v1/deployments/${deployment.id}`)).json<DeploymentDto>();
    const ownFile = path.join(dataDir, 'deployments', created.configId, 'written-by-the-program');
    expect(fs.readFileSync(ownFile, 'utf8')).toBe('mine');
    if (process.getuid?.() === 0) expect(fs.statSync(ownFile).uid).toBeGreaterThanOrEqual(200_000);
    // The key it printed is masked, everywhere its log goes.
    expect(lines.map((l) => l.text)).toContain('KEY ••••');
    expect(JSON.stringify(lines)).not.toContain(KEY_VALUE);
    // A deployment given a key: its status and logs are for owners and admins.
    for (const url of [`/api/v1/deployments/${deployment.id}/logs`, `/api/v1/deployments/${deployment.id}/status`]) {
      const asMember = await api('GET', url, undefined, member.accessToken);
      expect(asMember.statusCode).toBe(403);
      expect(asMember.json().message).toContain('owners and admins');
    }
  });

  const hostAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
  const itWithHostAddress = hostAddress ? it : it.skip;

  itWithHostAddress(
    "has egress by policy: the host's own address refused, reached once the operator lists it, and only through slirp4netns",
    async () => {
      const seen: string[] = [];
      const standIn = net.createServer((socket) => {
        seen.push(socket.remoteAddress ?? '');
        socket.destroy();
      });
      await new Promise<void>((resolve) => standIn.listen(0, hostAddress, resolve));
      const port = (standIn.address() as net.AddressInfo).port;
      const probeOnce = async (name: string) => {
        const deployment = await deploy({
          name,
          command: 'node',
          args: [PROBE],
          restartPolicy: 'never',
          env: { PROBE_CONNECT: JSON.stringify({ standIn: { host: hostAddress, port } }) },
        });
        const lines = await waitFor('the probes', async () => {
          const all = await logsOf(deployment.id);
          return all.some((l) => l.text === 'PROBES DONE') ? all : undefined;
        });
        return lines.find((l) => l.text.startsWith('PROBE connect_standIn '))?.text;
      };
      try {
        // Not listed: this host's own address is where its services listen — refused by the namespace's routes.
        expect(await probeOnce('egress refused')).toMatch(/^PROBE connect_standIn denied EACCES/);
        expect(seen).toEqual([]);
        // Listed in TOOLSCOPE_PRIVATE_UPSTREAMS (the policy is read at each start): reached, from the host's side of slirp4netns.
        t.config.privateUpstreamAllowList.ranges.addAddress(hostAddress as string);
        expect(await probeOnce('egress allowed')).toBe('PROBE connect_standIn ok connected');
        expect(seen).toEqual([hostAddress]);
      } finally {
        t.config.privateUpstreamAllowList.ranges = new net.BlockList();
        await new Promise((resolve) => standIn.close(resolve));
      }
    },
  );

  it('leaves nothing behind: a detached grandchild that ignores SIGTERM is gone after a stop and after the program crashes', async () => {
    const marker = `TOOLSCOPE_ORPHAN_MARKER_${randomUUID().replace(/-/g, '')}`;
    const first = await deploy({ name: 'orphan maker', command: 'node', args: [ORPHAN_MAKER], env: { [marker]: '1' } });
    // Watchdog, bwrap and its init, the program, server-everything and the detached grandchild.
    await waitFor('the grandchild', () => (processesWithMarker(marker).length >= 6 ? true : undefined));
    const stopped = await api('DELETE', `/api/v1/deployments/${first.id}`);
    expect(stopped.statusCode).toBe(200);
    await waitFor('no process left after the stop', () =>
      processesWithMarker(marker).length === 0 ? true : undefined,
    );

    const second = await deploy({
      name: 'orphan maker again',
      command: 'node',
      args: [ORPHAN_MAKER],
      env: { [marker]: '2' },
      restartPolicy: 'never',
    });
    await waitFor('the grandchild', () => (processesWithMarker(marker).length >= 6 ? true : undefined));
    const program = processesWithMarker(marker).find((pid) =>
      fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('orphan-maker.js'),
    );
    expect(program).toBeDefined();
    process.kill(program as number, 'SIGKILL');
    await waitFor('crashed', async () => {
      const s = (await api('GET', `/api/v1/deployments/${second.id}/status`)).json<DeploymentDto>();
      return s.status === 'crashed' ? s : undefined;
    });
    await waitFor('no process left after the crash', () =>
      processesWithMarker(marker).length === 0 ? true : undefined,
    );
  });
});

describeSandboxed(`who may deploy what (${engineName})`, () => {
  it('catalog mode refuses shell-capable forms and anything off the catalog with a clear 400, and admits a catalog package', async () => {
    const t = await buildTestApp({ deploymentsEnabled: true, deploymentMode: 'catalog' });
    try {
      const account = await registerAccount(t.app);
      const create = (body: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/deployments/configs',
          headers: bearer(account.accessToken),
          payload: { workspace_id: account.workspaceId, name: 'x', ...body },
        });
      const npxShell = await create({ command: 'npx', args: ['-y', '-c', 'id > /tmp/owned; ls /'] });
      expect(npxShell.statusCode).toBe(400);
      expect(npxShell.json().message).toContain('npx -c runs code given on the command line');
      const nodeEval = await create({ command: 'node', args: ['-e', 'require("fs")'] });
      expect(nodeEval.statusCode).toBe(400);
      expect(nodeEval.json().message).toContain('node -e');
      const pythonCode = await create({ command: 'python3', args: ['-c', 'import os'] });
      expect(pythonCode.statusCode).toBe(400);
      const requirePath = await create({ command: 'node', args: ['--require', '/tmp/x.js', 'server.js'] });
      expect(requirePath.statusCode).toBe(400);
      const offCatalog = await create({ command: 'npx', args: ['-y', 'some-package@1.0.0'] });
      expect(offCatalog.statusCode).toBe(400);
      expect(offCatalog.json().message).toContain('not a package of the marketplace');

      const everything = (bundledCatalog as { servers: CatalogServerJson[] }).servers.find(
        (s) => s.packages?.[0]?.identifier === '@modelcontextprotocol/server-everything',
      );
      const launch = packageLaunch(everything?.packages?.[0] as NonNullable<CatalogServerJson['packages']>[0]);
      expect(launch).not.toBeNull();
      const smuggled = await create({
        command: launch?.command,
        args: launch?.args,
        env: { NODE_OPTIONS: '--require /x' },
      });
      expect(smuggled.statusCode).toBe(400);
      expect(smuggled.json().message).toContain('NODE_OPTIONS is not among them');
      const admitted = await create({ command: launch?.command, args: launch?.args });
      expect(admitted.statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });

  it('refuses to start with deployments on and no bubblewrap, and says what to install', async () => {
    const database = await openTestDatabase();
    try {
      await expect(
        buildTestApp({ deploymentsEnabled: true, sandboxBwrap: '/nonexistent/bwrap' }, database),
      ).rejects.toThrow(/needs bwrap \(Debian package bubblewrap\).*never runs deployed programs unsandboxed/);
    } finally {
      await database.drop();
    }
  });
});
