import { buildTestApp } from '../helpers/testApp';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';
import { startFixtureMcpServer, type FixtureMcpServer } from '../monitor/support/fixtureMcpServer';
import { createMemberWithWorkspace, insertServerRow } from '../monitor/support/workspaceFixture';
import { startReceiver, waitUntil, type Receiver } from './receiver';

// Deliveries are rows, not promises: a restart in the middle of retries still delivers, and a
// real server going offline (its upstream stopped) reaches each matching integration once.
jest.setTimeout(90_000);

describe(`integration deliveries survive and follow real events (${engineName})`, () => {
  let database: TestDatabase;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await database.drop();
  });

  const addWebhook = async (workspaceId: string, url: string, rules: Record<string, unknown>) => {
    const [row] = await database.db.query<{ id: string }>(
      `insert into integrations (workspace_id, name, kind, config, rules) values ($1, 'hook', 'webhook', $2::jsonb, $3::jsonb) returning id`,
      [workspaceId, JSON.stringify({ url }), JSON.stringify(rules)],
    );
    return row.id;
  };

  it('a Toolscope restart in the middle of retries still delivers', async () => {
    const hook = await startReceiver([{ status: 500 }]);
    receivers.push(hook);
    const first = await buildTestApp({ integrationRetryBaseMs: 1_500 }, database);
    const member = await createMemberWithWorkspace(database.db, first.config.secret, 'Restart');
    const integrationId = await addWebhook(member.workspaceId, hook.url, { types: [], minSeverity: 'warning' });
    await first.app.notifications.raise({
      workspaceId: member.workspaceId,
      type: 'performance_warning',
      severity: 'warning',
      title: 'Slow tool',
      message: 'p95 above 2 s',
    });
    await hook.waitForRequests(1);
    await waitUntil(
      async () =>
        (
          await database.db.query(
            `select 1 from integration_activities where integration_id = $1 and status = 'retrying'`,
            [integrationId],
          )
        ).length === 1,
    );
    await first.close();

    hook.script = [{ status: 200 }];
    const second = await buildTestApp({ integrationRetryBaseMs: 1_500 }, database);
    try {
      await waitUntil(
        async () =>
          (
            await database.db.query(
              `select 1 from integration_deliveries where integration_id = $1 and status = 'delivered'`,
              [integrationId],
            )
          ).length === 1,
        30_000,
      );
      expect(hook.requests).toHaveLength(2);
      const statuses = await database.db.query<{ status: string; attempt: number }>(
        'select status, attempt from integration_activities where integration_id = $1 order by created_at',
        [integrationId],
      );
      expect(statuses).toEqual([
        { status: 'retrying', attempt: 1 },
        { status: 'delivered', attempt: 2 },
      ]);
    } finally {
      await second.close();
    }
  });

  it('a server whose upstream stops reaches each matching integration once, and not the others', async () => {
    let fixture: FixtureMcpServer | undefined = await startFixtureMcpServer();
    const matching = await startReceiver();
    const otherType = await startReceiver();
    receivers.push(matching, otherType);
    const t = await buildTestApp({ healthIntervalMs: 150, integrationRetryBaseMs: 50 }, database);
    try {
      const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Ops');
      await addWebhook(member.workspaceId, matching.url, { types: ['tool_server_status'], minSeverity: 'error' });
      await addWebhook(member.workspaceId, otherType.url, { types: ['billing_alert'], minSeverity: 'info' });
      const serverId = await insertServerRow(database.db, member.workspaceId, { url: fixture.url, name: 'Calculator' });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      await waitUntil(
        async () =>
          (await database.db.query(`select 1 from servers where id = $1 and status = 'online'`, [serverId])).length ===
          1,
      );

      await fixture.stop();
      const [request] = await matching.waitForRequests(1);
      const body = JSON.parse(request.body);
      expect(body.data.notification).toMatchObject({
        type: 'tool_server_status',
        severity: 'error',
        title: 'Server Offline',
        metadata: { serverId, status: 'offline' },
      });
      // Several more failed checks while it stays down: still one delivery.
      const checksSoFar = await database.db.query<{ last_checked: Date }>(
        'select last_checked from servers where id = $1',
        [serverId],
      );
      await waitUntil(async () => {
        const [row] = await database.db.query<{ last_checked: Date }>(
          'select last_checked from servers where id = $1',
          [serverId],
        );
        return new Date(row.last_checked).getTime() > new Date(checksSoFar[0].last_checked).getTime() + 450;
      });
      await t.app.integrationDispatcher.deliverDue();
      expect(matching.requests).toHaveLength(1);
      expect(otherType.requests).toHaveLength(0);
    } finally {
      await t.close();
      await fixture.stop().catch(() => undefined);
      fixture = undefined;
    }
  });
});
