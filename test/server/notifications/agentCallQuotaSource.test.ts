import { randomUUID } from 'node:crypto';
import { generateSecret } from '../../../src/server/config';
import { EventBus } from '../../../src/server/events/bus';
import { AgentCallQuotaMonitor } from '../../../src/server/notifications/sources/agentCallQuotaMonitor';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName, openTestDatabase } from '../helpers/testDatabase';
import { createUser, createWorkspace, toolCall, type TestUser } from './fixtures';

// Opening PGlite on a busy shared machine can take longer than Jest's default 5 s.
jest.setTimeout(60_000);

describe(`agent-call quota → billing_alert (${engineName})`, () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let workspaceId: string;
  let secondWorkspaceId: string;
  let proOwner: TestUser;
  let proWorkspaceId: string;

  const monthStart = () => {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  };

  beforeAll(async () => {
    // Usage recorded before the process starts: the monitor seeds its counts from it.
    const database = await openTestDatabase();
    const secret = generateSecret();
    const setup = await buildTestApp({ secret }, database);
    owner = await createUser(setup.app, 'Owner');
    member = await createUser(setup.app, 'Member');
    workspaceId = await createWorkspace(setup.app, owner, [{ user: member, role: 'admin' }]);
    secondWorkspaceId = await createWorkspace(setup.app, owner, [], 'Second');
    proOwner = await createUser(setup.app, 'Pro');
    proWorkspaceId = await createWorkspace(setup.app, proOwner);
    await setup.app.db.query(`insert into subscriptions (user_id, plan) values ($1, 'pro')`, [proOwner.id]);
    const insertUsage = (ws: string, bucket: Date, calls: number) =>
      setup.app.db.query(
        `insert into usage_minutes (workspace_id, server_id, tool_name, bucket, calls) values ($1, $2, 'search', $3, $4)`,
        [ws, randomUUID(), bucket, calls],
      );
    await insertUsage(workspaceId, monthStart(), 500);
    await insertUsage(secondWorkspaceId, new Date(monthStart().getTime() + 60_000), 290);
    await insertUsage(workspaceId, new Date(monthStart().getTime() - 60_000), 900); // last month
    await insertUsage(proWorkspaceId, monthStart(), 79_999);
    await setup.app.close();
    t = await buildTestApp({ secret }, database);
    // The test app owns the database from here on.
    const close = t.close.bind(t);
    t.close = async () => {
      await close();
      await database.drop();
    };
  });
  afterAll(() => t.close());

  async function publishCalls(ws: string, count: number) {
    for (let i = 0; i < count; i += 1)
      t.app.bus.publish(ws, { type: 'tool_call', data: toolCall({ sessionId: randomUUID(), serverId: randomUUID() }) });
    await t.app.notificationMonitors.agentCallQuota.idle();
  }
  const billingAlerts = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: user.auth }))
      .json()
      .notifications.filter((n: { type: string }) => n.type === 'billing_alert');

  it('seeds this month’s usage of all the account’s workspaces and alerts the owner at 80%', async () => {
    await publishCalls(workspaceId, 1);
    expect(t.app.notificationMonitors.agentCallQuota.usedThisMonth(owner.id)).toBe(791);
    await publishCalls(secondWorkspaceId, 8);
    expect(await billingAlerts(owner)).toEqual([]);

    await publishCalls(workspaceId, 1); // 800 of 1,000
    const [alert] = await billingAlerts(owner);
    expect(alert).toMatchObject({
      workspaceId: null,
      severity: 'warning',
      title: 'Agent Calls at 80% of Your Plan',
      message: 'You have used 800 of 1,000 agent calls of the Starter plan this month.',
      actionUrl: '/settings?tab=billing',
      metadata: { plan: 'starter', used: 800, limit: 1000, percent: 80 },
    });
    expect(await billingAlerts(member)).toEqual([]);
  });

  it('alerts once more at 100%, then stays quiet for the rest of the period', async () => {
    await publishCalls(workspaceId, 199);
    expect((await billingAlerts(owner)).map((n: { title: string }) => n.title)).toEqual([
      'Agent Calls at 80% of Your Plan',
    ]);
    await publishCalls(workspaceId, 1);
    const alerts = await billingAlerts(owner);
    expect(alerts.map((n: { title: string }) => n.title)).toEqual([
      'Agent Call Quota Reached',
      'Agent Calls at 80% of Your Plan',
    ]);
    expect(alerts[0]).toMatchObject({ severity: 'error', metadata: { percent: 100, used: 1000 } });

    await publishCalls(workspaceId, 50);
    expect(await billingAlerts(owner)).toHaveLength(2);
  });

  it('uses the owner’s plan', async () => {
    await publishCalls(proWorkspaceId, 1);
    const [alert] = await billingAlerts(proOwner);
    expect(alert).toMatchObject({
      message: 'You have used 80,000 of 100,000 agent calls of the Pro plan this month.',
      metadata: { plan: 'pro', percent: 80 },
    });
  });

  it('raises every threshold a burst crosses (a recorder flush announces its calls at once)', async () => {
    const burstOwner = await createUser(t.app, 'Burst');
    const burstWorkspace = await createWorkspace(t.app, burstOwner);
    await publishCalls(burstWorkspace, 1_050); // one turn of the event loop: 0 → 1,050 of 1,000
    expect(t.app.notificationMonitors.agentCallQuota.usedThisMonth(burstOwner.id)).toBe(1_050);
    const alerts = await billingAlerts(burstOwner);
    expect(alerts.map((n: { metadata: { percent: number; used: number } }) => n.metadata)).toEqual([
      expect.objectContaining({ percent: 100, used: 1000 }),
      expect.objectContaining({ percent: 80, used: 800 }),
    ]);
    expect(alerts[1].message).toBe('You have used 800 of 1,000 agent calls of the Starter plan this month.');
  });

  it('does not tell the owner twice after a restart, and counts again from zero in a new month', async () => {
    let now = new Date();
    const bus = new EventBus();
    const restarted = new AgentCallQuotaMonitor({
      bus,
      db: t.app.db,
      notifications: t.app.notifications,
      clock: () => now,
    });
    restarted.start();
    const publish = async (count: number) => {
      for (let i = 0; i < count; i += 1)
        bus.publish(workspaceId, {
          type: 'tool_call',
          data: toolCall({ sessionId: randomUUID(), serverId: randomUUID() }),
        });
      await restarted.idle();
    };
    try {
      await publish(20); // seeded at 790 from usage_minutes: crosses 80% again
      expect(restarted.usedThisMonth(owner.id)).toBe(810);
      expect(await billingAlerts(owner)).toHaveLength(2);

      now = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
      await publish(799);
      expect(restarted.usedThisMonth(owner.id)).toBe(799);
      expect(await billingAlerts(owner)).toHaveLength(2);
      await publish(1);
      const alerts = await billingAlerts(owner);
      expect(alerts).toHaveLength(3);
      expect(alerts.filter((n: { title: string }) => n.title === 'Agent Calls at 80% of Your Plan')).toHaveLength(2);
    } finally {
      await restarted.stop();
    }
  });
});
