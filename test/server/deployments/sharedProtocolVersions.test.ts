// A real stdio program deployed in shared mode, reached through the proxy: starting it takes seconds on a loaded machine.
jest.setTimeout(120_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as LegacyClient } from 'mcp-sdk-1-10/client/index.js';
import { StreamableHTTPClientTransport as LegacyStreamableHttp } from 'mcp-sdk-1-10/client/streamableHttp.js';
import type { DeploymentConfigDto, DeploymentDto } from '../../../src/contract/deployments';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { EVERYTHING_ENTRY, waitFor } from './support/processes';

// Issue 37, item 1: a shared deployment answers an initialize with the version the agent asked
// for (the spec's negotiation); the official SDK 1.10.2 refused the bridge's 2025-11-25 answer.
describe(`a shared deployment negotiates the agent's protocol version (${engineName})`, () => {
  let t: ProxyTestApp;
  let dataDir: string;
  let proxyUrl: URL;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-shared-versions-'));
    t = await startProxyApp({
      deploymentsEnabled: true,
      dataDir,
      deploymentStopGraceMs: 2_000,
      deploymentPath: process.env.PATH ?? '/usr/bin:/bin',
    });
    const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, headers: bearer(t.account.accessToken), payload });
    const created = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'Everything (stdio, shared)',
      command: 'node',
      args: [EVERYTHING_ENTRY, 'stdio'],
    });
    const config = created.json<DeploymentConfigDto>();
    expect(config.sessionMode).toBe('shared');
    const deployment = (await api('POST', `/api/v1/deployments/configs/${config.id}/deploy`)).json<DeploymentDto>();
    await waitFor('running', async () => {
      const s = (await api('GET', `/api/v1/deployments/${deployment.id}/status`)).json<DeploymentDto>();
      return s.status === 'running' ? s : undefined;
    });
    const listed = (await api('GET', `/api/v1/deployment-configs?workspace_id=${t.account.workspaceId}`)).json<
      DeploymentConfigDto[]
    >();
    proxyUrl = new URL(new URL(listed[0].proxyUrl ?? '').pathname, t.base);
  });
  afterAll(async () => {
    try {
      await t.close();
    } finally {
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])(
    'answers an initialize asking for %s with that version',
    async (version) => {
      const res = await fetch(proxyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-agent', version: '1' } },
        }),
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(`"protocolVersion":"${version}"`);
    },
  );

  it('serves the official SDK 1.10.2 client: connect, list tools, call one', async () => {
    const client = new LegacyClient({ name: 'sdk-1.10.2-agent', version: '1.0.0' });
    await client.connect(new LegacyStreamableHttp(proxyUrl));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'from an old SDK' } });
    expect(JSON.stringify(echoed.content)).toContain('from an old SDK');
    await client.close();
  });
});
