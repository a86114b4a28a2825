// Real sandboxed programs behind the real proxy: starting them takes seconds on a loaded machine.
jest.setTimeout(120_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DeploymentConfigDto, DeploymentDto } from '../../../src/contract/deployments';
import { SANDBOX_HOME } from '../../../src/server/deployments/sandbox';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { waitFor } from './support/processes';
import { sandboxAvailable } from './support/sandboxTools';

// Issue 30: the reference servers an operator deploys most — server-memory (a knowledge graph kept
// in a file) and server-filesystem (files under the folders it is given) — deploy in the sandbox
// and answer through the proxy. Both write, and the sandbox's only writable folder is the
// deployment's own home: the memory file and the files served live there.
const describeSandboxed = sandboxAvailable('test/server/deployments/referenceServers.test.ts')
  ? describe
  : describe.skip;

const entry = (name: string) =>
  path.resolve(__dirname, `../../../node_modules/@modelcontextprotocol/${name}/dist/index.js`);

describeSandboxed(`reference servers deployed in the sandbox (${engineName})`, () => {
  let t: ProxyTestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-reference-'));
    t = await startProxyApp({ deploymentsEnabled: true, dataDir, deploymentStopGraceMs: 1_000 });
  });
  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(t.account.accessToken), payload: payload as Record<string, unknown> });

  /** Deploys the program, waits until it runs, and returns an SDK client connected through its proxy URL. */
  async function deployAndConnect(
    body: Record<string, unknown>,
  ): Promise<{ client: Client; deployment: DeploymentDto }> {
    const created = await api('POST', '/api/v1/deployments/configs', { workspace_id: t.account.workspaceId, ...body });
    expect(created.statusCode).toBe(201);
    const deployed = await api('POST', `/api/v1/deployments/configs/${created.json<DeploymentConfigDto>().id}/deploy`);
    expect(deployed.statusCode).toBe(201);
    const deployment = await waitFor('running', async () => {
      const s = (
        await api('GET', `/api/v1/deployments/${deployed.json<DeploymentDto>().id}/status`)
      ).json<DeploymentDto>();
      if (s.status === 'failed' || s.status === 'crashed') throw new Error(`${s.status}: ${s.lastError ?? ''}`);
      return s.status === 'running' ? s : undefined;
    });
    const configs = (await api('GET', `/api/v1/deployment-configs?workspace_id=${t.account.workspaceId}`)).json<
      DeploymentConfigDto[]
    >();
    const proxyUrl = configs.find((c) => c.serverId === deployment.serverId)?.proxyUrl;
    expect(proxyUrl).toBeTruthy();
    const client = new Client({ name: 'reference-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(new URL(proxyUrl!).pathname, t.base)));
    return { client, deployment };
  }

  const text = (result: unknown) => JSON.stringify((result as { content: unknown }).content);

  it('server-memory keeps a knowledge graph in its own folder and reads it back', async () => {
    const { client, deployment } = await deployAndConnect({
      name: 'memory',
      command: 'node',
      args: [entry('server-memory')],
      env: { MEMORY_FILE_PATH: `${SANDBOX_HOME}/memory.jsonl` },
    });
    const created = await client.callTool({
      name: 'create_entities',
      arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
    });
    expect(created.isError).toBeFalsy();
    const graph = await client.callTool({ name: 'read_graph', arguments: {} });
    expect(text(graph)).toContain('wrote the first program');
    await client.close();
    expect((await api('DELETE', `/api/v1/deployments/${deployment.id}`)).statusCode).toBe(200);
  });

  it('server-filesystem writes and reads files under its folder, and refuses a path outside it', async () => {
    const { client, deployment } = await deployAndConnect({
      name: 'files',
      command: 'node',
      args: [entry('server-filesystem'), SANDBOX_HOME],
    });
    const written = await client.callTool({
      name: 'write_file',
      arguments: { path: `${SANDBOX_HOME}/notes.txt`, content: 'sandboxed notes' },
    });
    expect(written.isError).toBeFalsy();
    const read = await client.callTool({ name: 'read_text_file', arguments: { path: `${SANDBOX_HOME}/notes.txt` } });
    expect(text(read)).toContain('sandboxed notes');
    // Outside its folder: refused by the server, and not there to be read anyway (the sandbox).
    const outside = await client.callTool({
      name: 'read_text_file',
      arguments: { path: path.join(dataDir, 'secret.key') },
    });
    expect(outside.isError).toBe(true);
    await client.close();
    expect((await api('DELETE', `/api/v1/deployments/${deployment.id}`)).statusCode).toBe(200);
  });
});
