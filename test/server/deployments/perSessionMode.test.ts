// Real programs, a real proxy and SDK clients: starting processes takes seconds on a loaded machine.
jest.setTimeout(180_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DeploymentConfigDto, DeploymentDto } from '../../../src/contract/deployments';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { EVERYTHING_ENTRY, processesWithMarker, waitFor } from './support/processes';

// A server that keeps per-client state runs one process per agent session (sessionMode
// per-session): two agents get two programs, each session's calls reach its own, and a session
// that ends takes its program with it.
describe(`per-session deployments (${engineName})`, () => {
  let t: ProxyTestApp;
  let dataDir: string;
  const marker = `TOOLSCOPE_TEST_MARKER_${randomUUID().replace(/-/g, '')}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-per-session-'));
    t = await startProxyApp({
      deploymentsEnabled: true,
      dataDir,
      deploymentStopGraceMs: 2_000,
      deploymentPath: process.env.PATH ?? '/usr/bin:/bin',
    });
  });
  afterAll(async () => {
    await (t as ProxyTestApp | undefined)?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: bearer(t.account.accessToken),
      payload: payload as Record<string, unknown> | undefined,
    });
  const status = async (id: string) => (await api('GET', `/api/v1/deployments/${id}/status`)).json<DeploymentDto>();

  it('starts a program per agent session and stops it when the session ends', async () => {
    const created = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'Everything per session',
      command: 'node',
      args: [EVERYTHING_ENTRY, 'stdio'],
      env: { [marker]: '1' },
      sessionMode: 'per-session',
    });
    expect(created.statusCode).toBe(201);
    const config = created.json<DeploymentConfigDto>();
    const deployment = (await api('POST', `/api/v1/deployments/configs/${config.id}/deploy`)).json<DeploymentDto>();
    await waitFor('running', async () => ((await status(deployment.id)).status === 'running' ? true : undefined));
    const proxyUrl = (await api('GET', `/api/v1/deployment-configs/${config.id}`)).json().proxyUrl as string;
    // Toolscope's own health check and tool discovery are sessions too (each ended when done):
    // let them finish so the count below is the agents' alone.
    let quiet = 0;
    await waitFor(
      'the probes to end',
      async () => {
        quiet = (await status(deployment.id)).sessionProcesses === 0 ? quiet + 1 : 0;
        return quiet >= 5 ? true : undefined;
      },
      60_000,
      300,
    );

    const connect = async (name: string) => {
      const client = new Client({ name, version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(new URL(proxyUrl).pathname, t.base));
      await client.connect(transport);
      return { client, transport };
    };
    const first = await connect('agent-one');
    const second = await connect('agent-two');
    for (const [agent, text] of [
      [first, 'one'],
      [second, 'two'],
    ] as const) {
      const result = await agent.client.callTool({ name: 'echo', arguments: { message: text } });
      expect(JSON.stringify(result.content)).toContain(text);
    }
    // Exactly the agents' two: a health probe or a discovery that starts meanwhile (on a loaded
    // machine, after the quiet spell above) is a session of its own while it lasts, then ends.
    const both = await waitFor('two session processes', async () => {
      const s = await status(deployment.id);
      return s.sessionProcesses === 2 ? s : undefined;
    });
    expect(both.sessionProcesses).toBe(2);

    // The first agent ends its session: its program goes, the other's stays and still answers.
    await first.transport.terminateSession();
    await first.client.close();
    await waitFor('one session process left', async () =>
      (await status(deployment.id)).sessionProcesses === 1 ? true : undefined,
    );
    const stillThere = await second.client.callTool({ name: 'echo', arguments: { message: 'still here' } });
    expect(JSON.stringify(stillThere.content)).toContain('still here');

    await second.transport.terminateSession();
    await second.client.close();
    expect((await api('DELETE', `/api/v1/deployments/${deployment.id}`)).statusCode).toBe(200);
    await waitFor('no program left', () =>
      Promise.resolve(processesWithMarker(marker).length === 0 ? true : undefined),
    );
  });
});
