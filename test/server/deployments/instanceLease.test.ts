// Two Toolscope instances, real programs and SDK clients: seconds of process start-up and lease rounds.
jest.setTimeout(240_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DeploymentDto } from '../../../src/contract/deployments';
import { openDatabase, type Database } from '../../../src/server/db/database';
import { bearer } from '../helpers/accounts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratchDatabase';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { EVERYTHING_ENTRY, processesWithMarker, waitFor } from './support/processes';

// Issue 21 item 7: with several instances on one PostgreSQL, each deployment runs on exactly one
// (a lease in the database), the other instances' proxies reach it there, and when its instance
// goes away another takes the deployment over. Two instances need a shared PostgreSQL: this file
// runs in the PostgreSQL pass (TEST_DATABASE_URL, as .ci/run does after the PGlite pass).
const base = process.env.TEST_DATABASE_URL;
if (!base)
  console.error(
    '\n!!! instanceLease.test.ts needs PostgreSQL (two instances share it): it runs in the PostgreSQL pass, NOT in this PGlite one. !!!\n',
  );
const maybe = base ? describe : describe.skip;

maybe('deployments across two instances (postgres)', () => {
  let scratch: ScratchDatabase;
  let dbA: Database | undefined;
  let dbB: Database | undefined;
  let a: ProxyTestApp;
  let b: TestApp;
  let bBase: string;
  let dataDir: string;
  const marker = `TOOLSCOPE_TEST_MARKER_${randomUUID().replace(/-/g, '')}`;

  beforeAll(async () => {
    scratch = await createScratchDatabase(base!, 'toolscope_lease');
    dbA = await openDatabase({ databaseUrl: scratch.url });
    const { migrate } = await import('../../../src/server/db/migrate');
    await migrate(dbA);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-lease-'));
    const shared = {
      deploymentsEnabled: true,
      deploymentStopGraceMs: 2_000,
      deploymentPath: process.env.PATH ?? '/usr/bin:/bin',
    };
    a = await startProxyApp(
      { ...shared, dataDir: path.join(dataDir, 'a'), instanceId: 'instance-a' },
      { db: dbA, url: scratch.url, drop: () => dbA!.close() },
    );
    dbB = await openDatabase({ databaseUrl: scratch.url });
    // B shares A's secret: proxy keys and sealed credentials are the cluster's, not an instance's.
    b = await buildTestApp(
      { ...shared, dataDir: path.join(dataDir, 'b'), instanceId: 'instance-b', secret: a.config.secret },
      { db: dbB, url: scratch.url, drop: () => dbB!.close() },
    );
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    bBase = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await (a as ProxyTestApp | undefined)?.close().catch(() => undefined);
    await (b as TestApp | undefined)?.close().catch(() => undefined);
    // The apps leave databases they were handed open: closed before the scratch database is
    // dropped, or their LISTEN connections reconnect (and log) after the tests are done.
    await dbA?.close().catch(() => undefined);
    await dbB?.close().catch(() => undefined);
    await (scratch as ScratchDatabase | undefined)?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (app: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.app.inject({
      method,
      url,
      headers: bearer(a.account.accessToken),
      payload: payload as Record<string, unknown> | undefined,
    });
  const owner = async (id: string) =>
    (
      await a.database.db.query<{ owner_instance: string | null; status: string }>(
        'select owner_instance, status from deployments where id = $1',
        [id],
      )
    ).at(0);
  const echoThrough = async (baseUrl: string, proxyUrl: string, text: string) => {
    const client = new Client({ name: 'lease-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(new URL(proxyUrl).pathname, baseUrl)));
    try {
      return JSON.stringify((await client.callTool({ name: 'echo', arguments: { message: text } })).content);
    } finally {
      await client.close();
    }
  };

  it('runs a deployment on one instance, serves it through both, and moves it when that instance stops', async () => {
    const created = await api(a, 'POST', '/api/v1/deployments/configs', {
      workspace_id: a.account.workspaceId,
      name: 'Everything (shared)',
      command: 'node',
      args: [EVERYTHING_ENTRY, 'stdio'],
      env: { [marker]: '1' },
    });
    expect(created.statusCode).toBe(201);
    const configId = created.json().id as string;
    const deployment = (await api(a, 'POST', `/api/v1/deployments/configs/${configId}/deploy`)).json<DeploymentDto>();
    await waitFor('running on A', async () =>
      (await api(a, 'GET', `/api/v1/deployments/${deployment.id}/status`)).json().status === 'running'
        ? true
        : undefined,
    );
    expect(await owner(deployment.id)).toMatchObject({ owner_instance: 'instance-a' });
    const proxyUrl = (await api(a, 'GET', `/api/v1/deployment-configs/${configId}`)).json().proxyUrl as string;

    // B reads the same status and reaches A's program through its own proxy; it starts no copy.
    expect((await api(b, 'GET', `/api/v1/deployments/${deployment.id}/status`)).json()).toMatchObject({
      status: 'running',
    });
    expect(await echoThrough(bBase, proxyUrl, 'via B')).toContain('via B');
    expect(await echoThrough(a.base, proxyUrl, 'via A')).toContain('via A');
    expect(processesWithMarker(marker)).toHaveLength(4); // one sandbox (watchdog, two bwrap, program), on A

    // A stops (as in a rolling deploy): B takes the deployment over within a lease round.
    await a.app.close();
    const movedTo = await waitFor(
      'B to take the deployment over',
      async () => {
        const row = await owner(deployment.id);
        return row?.owner_instance === 'instance-b' && row.status === 'running' ? row : undefined;
      },
      60_000,
    );
    expect(movedTo.owner_instance).toBe('instance-b');
    expect(await echoThrough(bBase, proxyUrl, 'after the move')).toContain('after the move');
    expect(processesWithMarker(marker)).toHaveLength(4);

    expect((await api(b, 'DELETE', `/api/v1/deployments/${deployment.id}`)).statusCode).toBe(200);
    await waitFor('no program left', () =>
      Promise.resolve(processesWithMarker(marker).length === 0 ? true : undefined),
    );
  });
});
