// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(90_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount } from '../helpers/accounts';
import { PLANS, type Plan } from '../../../src/contract/plans';

// Issue 14 item 9: what each plan card promises is what the server enforces, line by line
// (docs/settings.md "Plans"). Schema drift alerts are everyone's: the rug-pull journey
// (test/server/schemas/rugPull.test.ts) raises one for a Starter account.

const line = (plan: Plan, name: string) => {
  const feature = plan.features.find((f) => f.name === name);
  if (!feature) throw new Error(`${plan.name} has no "${name}" line`);
  return feature;
};

describe(`plan cards match the server (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('every card has the same lines, and the free plan lacks only team workspaces', () => {
    const names = PLANS.map((plan) => plan.features.map((f) => f.name));
    for (const other of names.slice(1)) expect(other).toEqual(names[0]);
    expect(
      PLANS.find((p) => p.id === 'starter')!
        .features.filter((f) => !f.included)
        .map((f) => f.name),
    ).toEqual(['Team workspaces']);
    for (const plan of PLANS) {
      expect(line(plan, 'Schema drift alerts').included).toBe(true);
      expect(line(plan, 'Invite members').included).toBe(true);
    }
  });

  it.each(PLANS.map((plan) => [plan.id, plan] as const))(
    '%s: limits, team workspaces and invitations are what its card says',
    async (_id, plan) => {
      const account = await registerAccount(t.app);
      await t.database.db.query('update subscriptions set plan = $2 where user_id = $1', [account.user.id, plan.id]);
      const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(account.accessToken) });

      // "Agent calls per month" and "Workspaces": the limits the quota gate and workspace creation use.
      const limits = (await get('/api/v1/billing/workspace-limits')).json();
      expect(limits.agentCalls.limit).toBe(plan.agentCallsPerMonth);
      expect(limits.workspaces.limit).toBe(plan.workspaces);
      const shown = (n: number | null) => (n === null ? 'Unlimited' : n.toLocaleString('en-US'));
      expect(line(plan, 'Agent calls per month').limit).toBe(shown(plan.agentCallsPerMonth));
      expect(line(plan, 'Workspaces').limit).toBe(shown(plan.workspaces));

      // "Raw data kept": the days the expiry job keeps this plan's raw data (issue 33).
      const retention = (await get(`/api/v1/workspaces/${account.workspaceId}/retention`)).json();
      expect(retention.planDays).toBe(plan.rawRetentionDays);
      expect(line(plan, 'Raw data kept').limit).toBe(`${retention.rawDays} days`);

      // "Team workspaces": whether a team workspace may be created (the workspace count aside).
      const teamAllowed = line(plan, 'Team workspaces').included;
      const check = (await get('/api/v1/billing/can-create-workspace?type=team')).json();
      if (teamAllowed) {
        expect(check).toEqual({ canCreate: true, error: null });
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/v1/workspaces',
          headers: bearer(account.accessToken),
          payload: { name: 'Team', workspaceType: 'team' },
        });
        expect(created.statusCode).toBe(201);
      } else {
        expect(check.canCreate).toBe(false);
        const refused = await t.app.inject({
          method: 'POST',
          url: '/api/v1/workspaces',
          headers: bearer(account.accessToken),
          payload: { name: 'Team', workspaceType: 'team' },
        });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'plan_limit' });
      }

      // "Invite members": the account's own (personal) workspace takes invitations on every plan.
      const invited = await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${account.workspaceId}/members`,
        headers: bearer(account.accessToken),
        payload: { email: `teammate-${plan.id}-${Date.now()}@example.com`, role: 'member' },
      });
      expect(invited.statusCode).toBe(202);
    },
  );
});
