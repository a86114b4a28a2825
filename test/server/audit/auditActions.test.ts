import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuditEventDto } from '../../../src/contract/audit';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import { addToWorkspace } from '../helpers/workspaceMembers';
import { EVERYTHING_ENTRY } from '../deployments/support/processes';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';

jest.setTimeout(120_000);

// Workspace settings → Audit log lists what it records: every kind of action on that list is
// done here through the API by the owner, and the log must then hold it with its actor, its time
// and its target (issue 29 item 7: `key.revoked` had a label and no writer).
describe(`audit log: every listed action is recorded (${engineName})`, () => {
  let t: ProxyTestApp;
  let owner: TestAccount;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-audit-'));
    t = await startProxyApp({
      deploymentsEnabled: true,
      dataDir,
      deploymentStopGraceMs: 2_000,
      deploymentPath: process.env.PATH ?? '/usr/bin:/bin',
    });
    owner = t.account;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const ws = () => `/api/v1/workspaces/${owner.workspaceId}`;
  async function api<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    expected?: number,
  ): Promise<T> {
    const res = await t.app.inject({
      method,
      url,
      headers: bearer(owner.accessToken),
      payload: payload as Record<string, unknown> | undefined,
    });
    if (expected !== undefined ? res.statusCode !== expected : res.statusCode >= 300)
      throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
    return (res.body ? res.json() : null) as T;
  }

  /** The newest event of `action`, checked for actor, time and target. */
  async function expectRecorded(action: string, target: string, since: number): Promise<AuditEventDto> {
    const { events } = await api<{ events: AuditEventDto[] }>('GET', `${ws()}/audit?limit=200`);
    const event = events.find((e) => e.action === action);
    if (!event) throw new Error(`no ${action} in the audit log: ${events.map((e) => e.action).join(', ')}`);
    expect(event.actor).toEqual({ userId: owner.user.id, email: owner.email });
    expect(event.target).toBe(target);
    expect(Date.parse(event.createdAt)).toBeGreaterThanOrEqual(since - 1_000);
    return event;
  }

  it('platform key created and revoked', async () => {
    const since = Date.now();
    const key = await api<{ id: string }>('POST', `${ws()}/platform/keys`, { name: 'ci agent' }, 201);
    await expectRecorded('key.created', 'ci agent', since);
    await api('DELETE', `${ws()}/platform/keys/${key.id}`, { reason: 'leaked' });
    const revoked = await expectRecorded('key.revoked', 'ci agent', since);
    expect(revoked.details).toMatchObject({ keyId: key.id, reason: 'leaked' });
    // Revoking it again changes nothing, and records nothing.
    await api('DELETE', `${ws()}/platform/keys/${key.id}`, {});
    const { events } = await api<{ events: AuditEventDto[] }>('GET', `${ws()}/audit?limit=200`);
    expect(events.filter((e) => e.action === 'key.revoked')).toHaveLength(1);
  });

  it('workspace key created, rotated and deleted', async () => {
    const since = Date.now();
    const key = await api<{ id: string }>('POST', `${ws()}/keys`, { name: 'WEATHER_TOKEN', value: 'secret-1' }, 201);
    await expectRecorded('workspace_key.created', 'WEATHER_TOKEN', since);
    await api('PUT', `${ws()}/keys/${key.id}`, { value: 'secret-2' });
    const rotated = await expectRecorded('workspace_key.rotated', 'WEATHER_TOKEN', since);
    expect(JSON.stringify(rotated.details)).not.toContain('secret-2');
    await api('DELETE', `${ws()}/keys/${key.id}`, undefined, 204);
    await expectRecorded('workspace_key.deleted', 'WEATHER_TOKEN', since);
  });

  it('role changed and member removed', async () => {
    const since = Date.now();
    const member = await registerAccount(t.app);
    await addToWorkspace(t.app, owner.workspaceId, member, 'member');
    await api('PATCH', `${ws()}/members/${member.user.id}`, { role: 'admin' });
    const changed = await expectRecorded('member.role_changed', member.email, since);
    expect(changed.details).toEqual({ from: 'member', to: 'admin' });
    await api('DELETE', `${ws()}/members/${member.user.id}`, undefined, 204);
    await expectRecorded('member.removed', member.email, since);
  });

  it('server credentials changed (names only, never values)', async () => {
    const since = Date.now();
    const server = await api<{ id: string }>(
      'POST',
      `${ws()}/servers`,
      { name: 'weather', url: 'http://127.0.0.1:9/mcp' },
      201,
    );
    await api('PUT', `${ws()}/servers/${server.id}`, { headers: { Authorization: 'Bearer upstream-secret' } });
    const changed = await expectRecorded('server.credentials_changed', 'weather', since);
    expect(changed.details).toEqual({ headers: ['Authorization'], change: 'added' });
    expect(JSON.stringify(changed)).not.toContain('upstream-secret');
  });

  it('integration added, changed and removed', async () => {
    const since = Date.now();
    const created = await api<{ id: string }>(
      'POST',
      `${ws()}/integrations`,
      { kind: 'webhook', name: 'Ops hook', config: { url: 'http://127.0.0.1:9/hooks' } },
      201,
    );
    await expectRecorded('integration.created', 'Ops hook', since);
    await api('PUT', `${ws()}/integrations/${created.id}`, { name: 'Ops hook 2' });
    await expectRecorded('integration.updated', 'Ops hook 2', since);
    await api('DELETE', `${ws()}/integrations/${created.id}`, undefined, 204);
    await expectRecorded('integration.deleted', 'Ops hook 2', since);
  });

  it('telemetry exporter added, changed and removed', async () => {
    const since = Date.now();
    const created = await api<{ id: string }>(
      'POST',
      `${ws()}/telemetry/exporters`,
      { name: 'collector', endpoint: 'http://127.0.0.1:9/v1/traces?token=abc', signals: ['traces'] },
      201,
    );
    const added = await expectRecorded('exporter.created', 'collector', since);
    expect(JSON.stringify(added.details)).not.toContain('token=abc');
    await api('PUT', `${ws()}/telemetry/exporters/${created.id}`, { enabled: false });
    await expectRecorded('exporter.updated', 'collector', since);
    await api('DELETE', `${ws()}/telemetry/exporters/${created.id}`, undefined, 204);
    await expectRecorded('exporter.deleted', 'collector', since);
  });

  it('deployment started and stopped', async () => {
    const since = Date.now();
    const config = await api<{ id: string }>(
      'POST',
      '/api/v1/deployments/configs',
      {
        workspace_id: owner.workspaceId,
        name: 'everything (stdio)',
        command: 'node',
        args: [EVERYTHING_ENTRY, 'stdio'],
        restartPolicy: 'never',
      },
      201,
    );
    const deployment = await api<{ id: string }>(
      'POST',
      `/api/v1/deployments/configs/${config.id}/deploy`,
      undefined,
      201,
    );
    const started = await expectRecorded('deployment.started', 'everything (stdio)', since);
    expect(started.details).toMatchObject({ deploymentId: deployment.id, configId: config.id });
    await api('DELETE', `/api/v1/deployments/${deployment.id}`);
    await expectRecorded('deployment.stopped', 'everything (stdio)', since);
  });
});
