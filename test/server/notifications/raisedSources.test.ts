import { randomUUID } from 'node:crypto';
import type { LiveMessage } from '../../../src/contract/live';
import type { NotificationDto } from '../../../src/contract/notifications';
import { deploymentUpdateNotification } from '../../../src/server/notifications/sources/deploymentUpdate';
import { workspaceInviteNotification } from '../../../src/server/notifications/sources/workspaceInvite';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { createUser, createWorkspace, type TestUser } from './fixtures';

// Sources other modules raise through app.notifications: the health monitor (status, drift — with
// the inputs src/server/monitor gives), the invite flow and deployments (with the builders here).

// Opening PGlite on a busy shared machine can take longer than Jest's default 5 s.
jest.setTimeout(60_000);

describe(`notifications raised by other modules (${engineName})`, () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let workspaceId: string;
  const serverId = randomUUID();

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await createUser(t.app, 'Ada');
    bob = await createUser(t.app, 'Bob');
    workspaceId = await createWorkspace(t.app, ada, [], 'Ada’s team');
  });
  afterAll(() => t.close());
  beforeEach(() => t.app.db.query('delete from notifications'));

  const list = async (user: TestUser): Promise<NotificationDto[]> =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: user.auth })).json().notifications;

  const statusChange = (status: 'online' | 'offline') => ({
    workspaceId,
    type: 'tool_server_status' as const,
    severity: status === 'offline' ? ('error' as const) : ('success' as const),
    title: status === 'offline' ? 'Server Offline' : 'Server Online',
    message:
      status === 'offline'
        ? 'weather is not responding to health checks'
        : 'weather is responding to health checks again',
    actionUrl: `/servers?serverId=${serverId}`,
    metadata: { serverId, status, serverName: 'weather' },
    groupKey: `tool_server_status:${serverId}:${status}`,
  });

  it('tool_server_status: offline and back online, with the live message metadata of SPEC §3; a flapping server is grouped', async () => {
    const live: LiveMessage[] = [];
    const unsubscribe = t.app.bus.subscribe(workspaceId, (message) => live.push(message));
    try {
      await t.app.notifications.raise(statusChange('offline'));
      await t.app.notifications.raise(statusChange('online'));
      await t.app.notifications.raise(statusChange('offline'));
    } finally {
      unsubscribe();
    }
    const [offline, online] = await list(ada);
    expect(offline).toMatchObject({
      type: 'tool_server_status',
      severity: 'error',
      title: 'Server Offline',
      actionUrl: `/servers?serverId=${serverId}`,
      occurrences: 2,
    });
    expect(online).toMatchObject({ severity: 'success', title: 'Server Online', occurrences: 1 });
    expect(live.map((m) => m.type)).toEqual(['notification', 'notification', 'notification']);
    expect(live[0].data).toMatchObject({
      type: 'tool_server_status',
      metadata: { serverId, status: 'offline', serverName: 'weather' },
    });
    expect(live[1].data).toMatchObject({ metadata: { serverId, status: 'online', serverName: 'weather' } });
  });

  it('security_alert: one alert per changed schema version, never repeated', async () => {
    const schemaId = randomUUID();
    const drift = (toVersion: number) => ({
      workspaceId,
      type: 'security_alert' as const,
      severity: 'critical' as const,
      title: 'Tool definition changed: get_forecast',
      message: `weather changed the tool "get_forecast" (version ${toVersion - 1} → ${toVersion}).`,
      actionUrl: `/schema-studio?serverId=${serverId}&schemaId=${schemaId}`,
      metadata: { serverId, serverName: 'weather', schemaId, toVersion },
      groupKey: `schema_drift:${schemaId}:${toVersion}`,
      repeat: 'once' as const,
    });
    await t.app.notifications.raise(drift(2));
    await t.app.db.query('update notifications set is_read = true');
    await t.app.notifications.raise(drift(2));
    await t.app.notifications.raise(drift(3));
    const alerts = await list(ada);
    expect(alerts.map((n) => [n.metadata.toVersion, n.severity, n.actionUrl])).toEqual([
      [3, 'critical', `/schema-studio?serverId=${serverId}&schemaId=${schemaId}`],
      [2, 'critical', `/schema-studio?serverId=${serverId}&schemaId=${schemaId}`],
    ]);
  });

  it('workspace_invite: reaches the invitee only, once per invitation', async () => {
    const invitation = {
      workspaceId,
      workspaceName: 'Ada’s team',
      invitedByName: 'Ada Tester',
      role: 'member',
      acceptUrl: '/members?invitation=abc',
      invitationId: 'abc',
    };
    await t.app.notifications.raiseForUser(bob.id, workspaceInviteNotification(invitation));
    await t.app.notifications.raiseForUser(bob.id, workspaceInviteNotification(invitation));
    expect(await list(ada)).toEqual([]);
    const invites = await list(bob);
    expect(invites).toHaveLength(1);
    expect(invites[0]).toMatchObject({
      workspaceId: null,
      type: 'workspace_invite',
      title: 'Workspace Invitation',
      message: 'Ada Tester invited you to join Ada’s team as member',
      actionUrl: '/members?invitation=abc',
      metadata: { workspaceId, invitationId: 'abc' },
    });
  });

  it('deployment_update: one notification per deployment follows its status', async () => {
    const deploymentId = randomUUID();
    await t.app.notifications.raise(
      deploymentUpdateNotification({ workspaceId, deploymentId, configName: 'edge', status: 'starting' }),
    );
    await t.app.notifications.raise(
      deploymentUpdateNotification({
        workspaceId,
        deploymentId,
        configName: 'edge',
        status: 'failed',
        error: 'image not found',
      }),
    );
    const [update] = await list(ada);
    expect(update).toMatchObject({
      type: 'deployment_update',
      severity: 'error',
      title: 'Deployment Failed',
      message: 'edge: deployment is failed (image not found)',
      occurrences: 2,
      actionUrl: `/servers?deploymentId=${deploymentId}`,
    });
  });
});
