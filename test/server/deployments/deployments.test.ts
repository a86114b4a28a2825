// Real programs, a real proxy and the SDK client: building the app and starting processes takes seconds on a loaded machine.
jest.setTimeout(120_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DeploymentConfigDto, DeploymentDto, DeploymentLogsResult } from '../../../src/contract/deployments';
import type { LiveMessage } from '../../../src/contract/live';
import type { ServerDto } from '../../../src/contract/servers';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { EVERYTHING_ENTRY, PRINT_ENV, processesWithMarker, waitFor } from './support/processes';

// Issue 21 through the API: server-everything in stdio mode deployed, reached through its proxy
// URL by the SDK client, recorded, killed and restarted, stopped with nothing left behind.
describe(`deployments of stdio programs (${engineName})`, () => {
  let t: ProxyTestApp;
  let dataDir: string;
  const marker = `TOOLSCOPE_TEST_MARKER_${randomUUID().replace(/-/g, '')}`;
  const statuses: string[] = [];
  let unsubscribe: (() => void) | undefined;
  let config: DeploymentConfigDto;
  let deployment: DeploymentDto;
  const startedAt = new Date();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-deployments-'));
    process.env.TOOLSCOPE_SECRET_CANARY = 'must-not-reach-programs';
    t = await startProxyApp({
      deploymentsEnabled: true,
      dataDir,
      deploymentStopGraceMs: 2_000,
      deploymentPath: process.env.PATH ?? '/usr/bin:/bin',
    });
  });
  afterAll(async () => {
    unsubscribe?.();
    await (t as ProxyTestApp | undefined)?.close();
    delete process.env.TOOLSCOPE_SECRET_CANARY;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: bearer(t.account.accessToken),
      payload: payload as Record<string, unknown> | undefined,
    });
  const status = async (id: string) => (await api('GET', `/api/v1/deployments/${id}/status`)).json<DeploymentDto>();

  it('creates a config and deploys it: running within 10 s, registered as a tool server of kind deployment', async () => {
    const created = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'Everything (stdio)',
      command: 'node',
      args: [EVERYTHING_ENTRY, 'stdio'],
      env: { [marker]: '1' },
      restartPolicy: 'on-failure',
      maxRestarts: 3,
    });
    expect(created.statusCode).toBe(201);
    config = created.json();
    expect(config).toMatchObject({
      name: 'Everything (stdio)',
      command: 'node',
      restartPolicy: 'on-failure',
      maxRestarts: 3,
      sessionMode: 'shared',
      latestDeployment: null,
    });

    unsubscribe = t.app.bus.subscribe(t.account.workspaceId, (message: LiveMessage) => {
      if (message.type === 'deployment_updated') statuses.push((message.data as DeploymentDto).status);
    });
    const began = Date.now();
    const deployed = await api('POST', `/api/v1/deployments/configs/${config.id}/deploy`);
    expect(deployed.statusCode).toBe(201);
    deployment = deployed.json();
    const running = await waitFor('running', async () => {
      const s = await status(deployment.id);
      return s.status === 'running' ? s : undefined;
    });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(running.pid).toEqual(expect.any(Number));
    expect(running.restarts).toBe(0);
    expect(running.memoryBytes).toBeGreaterThan(1_000_000);

    const servers = (await api('GET', `/api/v1/workspaces/${t.account.workspaceId}/servers`)).json<ServerDto[]>();
    const server = servers.find((s) => s.id === running.serverId)!;
    expect(server).toMatchObject({ kind: 'deployment', name: 'Everything (stdio)', hasCredentials: true });
    const listed = (await api('GET', `/api/v1/deployment-configs?workspace_id=${t.account.workspaceId}`)).json<
      DeploymentConfigDto[]
    >();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: config.id,
      serverId: server.id,
      proxyUrl: server.proxyUrl,
      latestDeployment: { id: deployment.id, status: 'running' },
    });
    config = listed[0];
  });

  it('serves an SDK client through its proxy URL, and the session is recorded', async () => {
    const client = new Client({ name: 'deployment-test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(new URL(config.proxyUrl!).pathname, t.base)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'through a deployment' } });
    expect(JSON.stringify(echoed.content)).toContain('through a deployment');
    await client.close();

    const recorded = await waitFor('the recorded call', async () => {
      const rows = await t.database.db.query<{ client_name: string; tool_name: string; status: string }>(
        `select s.client_name, c.tool_name, c.status from tool_calls c join sessions s on s.id = c.session_id where c.server_id = $1`,
        [config.serverId],
      );
      // A call is written when it starts (pending) and again when answered: wait for the answer.
      return rows.length > 0 && rows.every((row) => row.status !== 'pending') ? rows : undefined;
    });
    expect(recorded).toEqual([{ client_name: 'deployment-test-agent', tool_name: 'echo', status: 'ok' }]);
  });

  it('returns its stderr from logs?since=, with timestamps and streams', async () => {
    const res = await api(
      'GET',
      `/api/v1/deployments/${deployment.id}/logs?since=${encodeURIComponent(startedAt.toISOString())}`,
    );
    expect(res.statusCode).toBe(200);
    const { lines } = res.json<DeploymentLogsResult>();
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stream: 'stderr', text: 'Starting default (STDIO) server...' }),
      ]),
    );
    for (const line of lines) expect(Date.parse(line.at)).toBeGreaterThanOrEqual(startedAt.getTime());
    const later = (
      await api(
        'GET',
        `/api/v1/deployments/${deployment.id}/logs?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      )
    ).json<DeploymentLogsResult>();
    expect(later.lines).toEqual([]);
    const bad = await api('GET', `/api/v1/deployments/${deployment.id}/logs?since=yesterday`);
    expect(bad.statusCode).toBe(400);
  });

  it('restarts a killed program: restarting, then running with restarts 1', async () => {
    const before = await status(deployment.id);
    statuses.length = 0;
    process.kill(before.pid!, 'SIGKILL');
    const after = await waitFor('running again', async () => {
      const s = await status(deployment.id);
      return s.status === 'running' && s.pid !== before.pid ? s : undefined;
    });
    expect(after.restarts).toBe(1);
    expect(after.signal).toBe('SIGKILL');
    // The API answers from the live state; the live update follows once the row is written.
    await waitFor('the running update on the live stream', () => (statuses.includes('running') ? true : undefined));
    expect(statuses).toEqual(expect.arrayContaining(['restarting', 'starting', 'running']));
    expect(statuses.indexOf('restarting')).toBeLessThan(statuses.lastIndexOf('running'));
    // The old program is gone: one sandbox carries the marker (watchdog, bwrap and its PID namespace's
    // init, the program).
    const left = processesWithMarker(marker);
    expect(left).toHaveLength(4);
    expect(left).not.toContain(before.pid);
  });

  it('answers a restart once the new program serves: running with its pid, and a call sent at once succeeds', async () => {
    const before = await status(deployment.id);
    const res = await api('POST', `/api/v1/deployments/${deployment.id}/restart`);
    expect(res.statusCode).toBe(200);
    const restarted = res.json<DeploymentDto>();
    expect(restarted.status).toBe('running');
    expect(restarted.pid).toEqual(expect.any(Number));
    expect(restarted.pid).not.toBe(before.pid);
    const client = new Client({ name: 'after-restart', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(new URL(config.proxyUrl!).pathname, t.base)));
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'right after a restart' } });
    expect(JSON.stringify(echoed.content)).toContain('right after a restart');
    await client.close();
  });

  it('stops: status stopped, the server goes offline, and no process is left', async () => {
    const res = await api('DELETE', `/api/v1/deployments/${deployment.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'stopped', pid: null });
    expect(processesWithMarker(marker)).toEqual([]);
    const server = (
      await api('GET', `/api/v1/workspaces/${t.account.workspaceId}/servers/${config.serverId}`)
    ).json<ServerDto>();
    expect(server.status).toBe('offline');
    const list = (await api('GET', `/api/v1/deployments/configs/${config.id}/deployments`)).json<DeploymentDto[]>();
    expect(list.map((d) => d.status)).toEqual(['stopped']);
  });

  it('refuses a command off the allowlist and says how to allow it', async () => {
    const res = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'shell',
      command: 'bash',
      args: ['-c', 'id'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/The command "bash" is not allowed.*TOOLSCOPE_DEPLOYMENT_COMMANDS/);
    const changed = await api('PUT', `/api/v1/deployment-configs/${config.id}`, { command: 'sh' });
    expect(changed.statusCode).toBe(400);
    const count = await t.database.db.query<{ n: number }>('select count(*)::int as n from deployment_configs');
    expect(count[0].n).toBe(1);
  });

  it("gives a program only its declared environment plus PATH and HOME, never Toolscope's secrets", async () => {
    const created = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'env printer',
      command: 'node',
      args: [PRINT_ENV],
      env: { DECLARED: 'yes' },
      restartPolicy: 'never',
    });
    expect(created.statusCode).toBe(201);
    const deployed = (
      await api('POST', `/api/v1/deployments/configs/${created.json().id}/deploy`)
    ).json<DeploymentDto>();
    await waitFor('the program to end', async () =>
      (await status(deployed.id)).status === 'crashed' || (await status(deployed.id)).status === 'stopped'
        ? true
        : undefined,
    );
    const { lines } = (await api('GET', `/api/v1/deployments/${deployed.id}/logs`)).json<DeploymentLogsResult>();
    const envLine = lines.find((l) => l.stream === 'stderr' && l.text.startsWith('ENV '))!;
    const env = JSON.parse(envLine.text.slice(4)) as Record<string, string>;
    // bwrap adds PWD (the sandbox's own cwd); HOME is the deployment's folder inside the sandbox.
    expect(Object.keys(env).sort()).toEqual(['DECLARED', 'HOME', 'PATH', 'PWD']);
    expect(env.HOME).toBe('/home/deployment');
    expect(envLine.text).not.toContain('must-not-reach-programs');
    expect(envLine.text).not.toContain(t.config.secret);
    // What it printed to stdout was not JSON-RPC: logged as a warning line, not passed on.
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stream: 'stdout', text: expect.stringContaining('hello from a program') }),
      ]),
    );
  });

  it('resolves {{key:NAME}} from workspace keys into the environment, and refuses an unknown name', async () => {
    const unknown = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'keyed',
      command: 'node',
      env: { TOKEN: 'Bearer {{key:NO_SUCH_KEY}}' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Unknown workspace key: NO_SUCH_KEY');
    const key = await api('POST', `/api/v1/workspaces/${t.account.workspaceId}/keys`, {
      name: 'DEPLOY_TOKEN',
      value: 'resolved-secret-value',
    });
    expect(key.statusCode).toBe(201);
    const created = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'keyed env printer',
      command: 'node',
      args: [PRINT_ENV],
      env: { TOKEN: 'Bearer {{key:DEPLOY_TOKEN}}' },
      restartPolicy: 'never',
    });
    expect(created.statusCode).toBe(201);
    // The config keeps the reference, never the value.
    expect(created.json().env).toEqual({ TOKEN: 'Bearer {{key:DEPLOY_TOKEN}}' });
    const deployed = (
      await api('POST', `/api/v1/deployments/configs/${created.json().id}/deploy`)
    ).json<DeploymentDto>();
    const envLine = await waitFor('the printed environment', async () => {
      const { lines } = (await api('GET', `/api/v1/deployments/${deployed.id}/logs`)).json<DeploymentLogsResult>();
      return lines.find((l) => l.stream === 'stderr' && l.text.startsWith('ENV '));
    });
    // The program got the value; its log shows it masked (issue 30: known key values become ••••).
    expect(JSON.parse(envLine.text.slice(4))).toMatchObject({ TOKEN: 'Bearer ••••' });
    expect(envLine.text).not.toContain('resolved-secret-value');
  });
});
