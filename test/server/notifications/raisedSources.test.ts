import { randomUUID } from 'node:crypto';
import type { LiveMessage } from '../../../src/contract/live';
import type { NotificationDto } from '../../../src/contract/notifications';
import { deploymentUpdateNotification } from '../../../src/server/notifications/sources/deploymentUpdate';
import { schemaDriftNotification } from '../../../src/server/notifications/sources/schemaDrift';
import { serverStatusNotification } from '../../../src/server/notifications/sources/serverStatus';
import { workspaceInviteNotification } from '../../../src/server/notifications/sources/workspaceInvite';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { createUser, createWorkspace, type TestUser } from './fixtures';

// Sources other modules raise through app.notifications with these builders: the health monitor
// (status, drift), the invite flow and deployments.

// Opening PGlite on a busy shared machine can take longer than Jest's default 5 s.
jest.setTimeout(30_000);

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

  it('tool_server_status: offline and back online, with the live message metadata of SPEC §3', async () => {
    const live: LiveMessage[] = [];
    const unsubscribe = t.app.bus.subscribe(workspaceId, (message) => live.push(message));
    try {
      await t.app.notifications.raise(serverStatusNotification({ workspaceId, serverId, serverName: 'weather', status: 'offline', reason: 'connection refused' }));
      await t.app.notifications.raise(serverStatusNotification({ workspaceId, serverId, serverName: 'weather', status: 'offline' }));
      await t.app.notifications.raise(serverStatusNotification({ workspaceId, serverId, serverName: 'weather', status: 'online' }));
    } finally {
      unsubscribe();
    }
    const [online, offline] = await list(ada);
    expect(offline).toMatchObject({
      type: 'tool_server_status',
      severity: 'error',
      title: 'Server Offline',
      message: 'weather is not responding to health checks',
      actionUrl: `/servers?serverId=${serverId}`,
      occurrences: 2,
    });
    expect(online).toMatchObject({ severity: 'success', title: 'Server Back Online', message: 'weather is responding to health checks again', occurrences: 1 });
    expect(live.map((m) => m.type)).toEqual(['notification', 'notification', 'notification']);
    expect(live[0].data).toMatchObject({ type: 'tool_server_status', metadata: { serverId, status: 'offline', serverName: 'weather' } });
    expect(live[2].data).toMatchObject({ metadata: { serverId, status: 'online', serverName: 'weather' } });
  });

  it('security_alert: schema drift links to the schema studio and groups per server', async () => {
    const schemaId = randomUUID();
    const drift = {
      workspaceId,
      serverId,
      serverName: 'weather',
      changes: [
        { schemaId, name: 'get_forecast', change: 'changed' as const },
        { name: 'get_alerts', change: 'added' as const },
      ],
    };
    await t.app.notifications.raise(schemaDriftNotification(drift));
    await t.app.notifications.raise(schemaDriftNotification(drift));
    const [alert] = await list(ada);
    expect(alert).toMatchObject({
      type: 'security_alert',
      severity: 'error',
      title: 'Schema Drift Detected',
      message: 'weather changed its schemas (1 changed, 1 added): get_forecast, get_alerts',
      actionUrl: `/schema-studio?serverId=${serverId}&schemaId=${schemaId}`,
      occurrences: 2,
    });
    expect(schemaDriftNotification({ ...drift, changes: [{ name: 'new_tool', change: 'added' }] }).severity).toBe('warning');
  });

  it('workspace_invite: reaches the invitee only, once per invitation', async () => {
    const invitation = { workspaceId, workspaceName: 'Ada’s team', invitedByName: 'Ada Tester', role: 'member', acceptUrl: '/members?invitation=abc', invitationId: 'abc' };
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
    await t.app.notifications.raise(deploymentUpdateNotification({ workspaceId, deploymentId, configName: 'edge', status: 'deploying' }));
    await t.app.notifications.raise(deploymentUpdateNotification({ workspaceId, deploymentId, configName: 'edge', status: 'failed', error: 'image not found' }));
    const [update] = await list(ada);
    expect(update).toMatchObject({
      type: 'deployment_update',
      severity: 'error',
      title: 'Deployment Failed',
      message: 'edge: deployment is failed (image not found)',
      occurrences: 2,
      actionUrl: `/workspace/${workspaceId}/settings?tab=deployments&deploymentId=${deploymentId}`,
    });
  });
});
