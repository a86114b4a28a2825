// A real stdio program deployed: starting it takes seconds on a loaded machine.
jest.setTimeout(120_000);

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeploymentDto } from '../../../src/contract/deployments';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { EVERYTHING_ENTRY, waitFor } from '../deployments/support/processes';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';

const TOKEN = 'metrics-token-for-deployments-0123456789';

// GET /metrics counts the deployments this instance runs, by status, with their memory and restarts.
describe(`deployment metrics (${engineName})`, () => {
  let t: ProxyTestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-deployment-metrics-'));
    t = await startProxyApp({
      deploymentsEnabled: true,
      dataDir,
      metricsToken: TOKEN,
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
  const scrape = async () =>
    (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  const value = (body: string, series: string) => {
    const line = body.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('shows a running deployment with its memory, and no longer once it is stopped', async () => {
    const before = await scrape();
    expect(value(before, 'toolscope_deployments{status="running"}')).toBe(0);

    const created = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'Everything',
      command: 'node',
      args: [EVERYTHING_ENTRY, 'stdio'],
    });
    expect(created.statusCode).toBe(201);
    const deployed = await api('POST', `/api/v1/deployments/configs/${created.json().id}/deploy`);
    const deployment = deployed.json<DeploymentDto>();
    await waitFor('running', async () =>
      (await api('GET', `/api/v1/deployments/${deployment.id}/status`)).json().status === 'running' ? true : undefined,
    );

    const running = await waitFor('memory in the metrics', async () => {
      const body = await scrape();
      return (value(body, 'toolscope_deployment_memory_bytes') ?? 0) > 1_000_000 ? body : undefined;
    });
    expect(value(running, 'toolscope_deployments{status="running"}')).toBe(1);
    expect(running).toContain('# TYPE toolscope_deployment_restarts_total counter');

    // A restart asked for counts as one, by its reason.
    expect((await api('POST', `/api/v1/deployments/${deployment.id}/restart`)).statusCode).toBe(200);
    expect(value(await scrape(), 'toolscope_deployment_restarts_total{reason="requested"}')).toBe(1);

    expect((await api('DELETE', `/api/v1/deployments/${deployment.id}`)).statusCode).toBe(200);
    await waitFor('stopped in the metrics', async () =>
      value(await scrape(), 'toolscope_deployments{status="running"}') === 0 ? true : undefined,
    );
  });

  // Issue 37, item 9: a counter of every restart, not a sum over what runs now — a program that
  // crashed, was restarted twice and gave up (failed: no longer run) keeps its restarts counted.
  it('counts every restart after a crash, also of a deployment that then failed', async () => {
    const created = await api('POST', '/api/v1/deployments/configs', {
      workspace_id: t.account.workspaceId,
      name: 'Crashes at once',
      command: 'node',
      args: ['-e', 'process.exit(3)'],
      restartPolicy: 'on-failure',
      maxRestarts: 2,
    });
    expect(created.statusCode).toBe(201);
    const deployment = (
      await api('POST', `/api/v1/deployments/configs/${created.json().id}/deploy`)
    ).json<DeploymentDto>();
    const failed = await waitFor('failed', async () => {
      const status = (await api('GET', `/api/v1/deployments/${deployment.id}/status`)).json<DeploymentDto>();
      return status.status === 'failed' ? status : undefined;
    });
    expect(failed.restarts).toBe(2);
    const body = await scrape();
    expect(value(body, 'toolscope_deployment_restarts_total{reason="crash"}')).toBe(2);
    expect(value(body, 'toolscope_deployment_restarts_total{reason="requested"}')).toBe(1);
  });
});
