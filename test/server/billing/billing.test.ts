// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import {
  downgradeBlockedText,
  paidPlanNeedsCheckoutText,
  teamWorkspaceText,
  workspaceLimitText,
} from '../../../src/contract/billing';
import { monthStart } from '../../../src/server/modules/billing/store';

describe(`billing: limits, usage and subscription (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const get = (account: TestAccount, url: string) =>
    t.app.inject({ method: 'GET', url, headers: bearer(account.accessToken) });
  const putSubscription = (account: TestAccount, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/billing/subscription',
      headers: bearer(account.accessToken),
      payload: payload as object,
    });
  const setPlan = (account: TestAccount, plan: string) =>
    t.database.db.query('update subscriptions set plan = $2 where user_id = $1', [account.user.id, plan]);

  describe('GET /billing/can-create-workspace', () => {
    it('defaults to personal and refuses on Starter with the workspace limit text', async () => {
      const account = await registerAccount(t.app);
      const res = await get(account, '/api/v1/billing/can-create-workspace');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ canCreate: false, error: workspaceLimitText('Starter', 1) });
      expect(workspaceLimitText('Starter', 1)).toBe('Your Starter plan allows 1 workspace. Upgrade to create more.');
    });

    it('explains that Starter has no team workspaces', async () => {
      const account = await registerAccount(t.app);
      expect((await get(account, '/api/v1/billing/can-create-workspace?type=team')).json()).toEqual({
        canCreate: false,
        error: teamWorkspaceText('Starter'),
      });
    });

    it('allows creation on Pro below its limit, for either type', async () => {
      const account = await registerAccount(t.app);
      await setPlan(account, 'pro');
      expect((await get(account, '/api/v1/billing/can-create-workspace?type=team')).json()).toEqual({
        canCreate: true,
        error: null,
      });
      expect((await get(account, '/api/v1/billing/can-create-workspace?type=personal')).json()).toEqual({
        canCreate: true,
        error: null,
      });
    });

    it('answers 400 for an unknown type', async () => {
      const account = await registerAccount(t.app);
      const res = await get(account, '/api/v1/billing/can-create-workspace?type=galaxy');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { type: expect.any(String) } });
    });
  });

  describe('GET /billing/workspace-limits', () => {
    it('counts owned workspaces and this month’s agent calls across them, not other months or other users', async () => {
      const account = await registerAccount(t.app);
      const other = await registerAccount(t.app);
      const thisMonth = monthStart(new Date());
      const lastMonth = new Date(thisMonth.getTime() - 24 * 3600 * 1000);
      const server = randomUUID();
      await t.database.db.query(
        `insert into usage_minutes (workspace_id, server_id, tool_name, bucket, calls) values
         ($1, $3, 'search', $4, 40), ($1, $3, 'fetch', $4, 2), ($1, $3, 'search', $5, 500), ($2, $3, 'search', $4, 7)`,
        [account.workspaceId, other.workspaceId, server, thisMonth, lastMonth],
      );
      const res = await get(account, '/api/v1/billing/workspace-limits');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        plan: 'starter',
        workspaces: { used: 1, limit: 1 },
        agentCalls: { used: 42, limit: 1000, periodStart: thisMonth.toISOString() },
      });
    });

    it('reports unlimited plans with null limits', async () => {
      const account = await registerAccount(t.app);
      await setPlan(account, 'enterprise');
      const body = (await get(account, '/api/v1/billing/workspace-limits')).json();
      expect(body).toMatchObject({
        plan: 'enterprise',
        workspaces: { used: 1, limit: null },
        agentCalls: { used: 0, limit: null },
      });
    });
  });

  describe('GET and PUT /billing/subscription', () => {
    it('shows a new account on Starter, monthly, in the current calendar month', async () => {
      const account = await registerAccount(t.app);
      const res = await get(account, '/api/v1/billing/subscription');
      const start = monthStart(new Date());
      const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
      expect(res.json()).toEqual({
        plan: 'starter',
        interval: 'monthly',
        status: 'active',
        currentPeriodStart: start.toISOString(),
        currentPeriodEnd: end.toISOString(),
      });
    });

    it('rolls a stale billing period forward to the one containing today', async () => {
      const account = await registerAccount(t.app);
      await t.database.db.query(
        `update subscriptions set current_period_start = '2020-01-01T00:00:00Z', current_period_end = '2020-02-01T00:00:00Z' where user_id = $1`,
        [account.user.id],
      );
      expect((await get(account, '/api/v1/billing/subscription')).json().currentPeriodStart).toBe(
        monthStart(new Date()).toISOString(),
      );
    });

    it('refuses an upgrade without checkout (403) and changes nothing', async () => {
      const account = await registerAccount(t.app);
      const res = await putSubscription(account, { plan: 'pro', interval: 'annually' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: paidPlanNeedsCheckoutText('Pro'), code: 'forbidden' });
      expect((await get(account, '/api/v1/billing/subscription')).json()).toMatchObject({
        plan: 'starter',
        interval: 'monthly',
      });
    });

    it('changes the interval and moves down a plan', async () => {
      const account = await registerAccount(t.app);
      await setPlan(account, 'enterprise');
      expect((await putSubscription(account, { plan: 'enterprise', interval: 'annually' })).json()).toMatchObject({
        plan: 'enterprise',
        interval: 'annually',
      });
      const down = await putSubscription(account, { plan: 'starter' });
      expect(down.statusCode).toBe(200);
      expect(down.json()).toMatchObject({ plan: 'starter', interval: 'monthly', status: 'active' });
    });

    it('refuses to move down to a plan with fewer workspaces than the account owns (409)', async () => {
      const account = await registerAccount(t.app);
      await setPlan(account, 'pro');
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: bearer(account.accessToken),
        payload: { name: 'Second' },
      });
      const res = await putSubscription(account, { plan: 'starter' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: downgradeBlockedText('Starter', 1, 2), code: 'conflict' });
      expect((await get(account, '/api/v1/billing/subscription')).json().plan).toBe('pro');
    });

    it.each([
      ['an unknown plan', { plan: 'platinum' }],
      ['an unknown interval', { plan: 'starter', interval: 'weekly' }],
      ['no plan', {}],
    ])('answers 400 for %s', async (_label, payload) => {
      const account = await registerAccount(t.app);
      const res = await putSubscription(account, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    });
  });

  it('requires sign-in on every billing route', async () => {
    for (const url of [
      '/api/v1/billing/can-create-workspace',
      '/api/v1/billing/workspace-limits',
      '/api/v1/billing/subscription',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/v1/billing/subscription', payload: { plan: 'starter' } }))
        .statusCode,
    ).toBe(401);
  });
});
