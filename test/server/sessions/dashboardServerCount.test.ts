import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { seedServer, seedWorkspace } from './seed';
import type { DashboardOverview } from '../../../src/contract/dashboard';

// Issue 38: stopping a deployment on purpose left its server counted offline on the dashboard.
describe(`the dashboard's server count (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 60_000);
  afterAll(() => (t as TestApp | undefined)?.close());

  it('leaves out a deployment stopped on purpose, but counts a crashed one offline', async () => {
    const db = t.database.db;
    const fleet = await seedWorkspace(db, t.config.secret, 'Fleet');
    const deployment = async (name: string, status: 'stopped' | 'crashed') => {
      const serverId = await seedServer(db, fleet.workspaceId, name, 'offline');
      await db.query(`update servers set kind = 'deployment' where id = $1`, [serverId]);
      const [config] = await db.query<{ id: string }>(
        `insert into deployment_configs (workspace_id, name, command, server_id) values ($1, $2, 'node', $3) returning id`,
        [fleet.workspaceId, name, serverId],
      );
      // An earlier run that was running, then the latest one.
      for (const [i, state] of (['running', status] as const).entries()) {
        await db.query(
          `insert into deployments (workspace_id, config_id, server_id, status, desired_state, created_at)
           values ($1, $2, $3, $4, 'stopped', now() - make_interval(mins => $5))`,
          [fleet.workspaceId, config.id, serverId, state, 10 - i],
        );
      }
    };
    await seedServer(db, fleet.workspaceId, 'remote', 'online');
    await deployment('stopped on purpose', 'stopped');
    await deployment('crashed', 'crashed');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${fleet.workspaceId}/dashboard/overview`,
      headers: { authorization: `Bearer ${fleet.token}` },
    });
    expect(res.json<DashboardOverview>().servers).toEqual({ total: 2, online: 1, offline: 1 });
  });
});
