jest.setTimeout(120_000);

import { buildApp } from '../../../src/server/app';
import { generateSecret, loadConfig } from '../../../src/server/config';
import type { PaymentProvider } from '../../../src/server/modules/billing/paymentProvider';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';
import { bearer, registerAccount } from '../helpers/accounts';

describe(`checkout and portal routes (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("answer 501 'Payments are not configured' while no payment provider is set up, and check their input", async () => {
    const account = await registerAccount(t.app);
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/create-checkout-session',
      headers: bearer(account.accessToken),
      payload: { planId: 'pro', interval: 'monthly' },
    });
    expect(checkout.statusCode).toBe(501);
    expect(checkout.json()).toEqual({ message: 'Payments are not configured', code: 'not_implemented' });
    const portal = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/create-portal-session',
      headers: bearer(account.accessToken),
    });
    expect(portal.statusCode).toBe(501);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/billing/create-checkout-session',
          headers: bearer(account.accessToken),
          payload: { planId: 'gold' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/billing/create-checkout-session',
          payload: { planId: 'pro' },
        })
      ).statusCode,
    ).toBe(401);
  });

  describe('with a provider plugged in', () => {
    // The card payment provider cannot run here: a recording fake stands in for it.
    const requests: unknown[] = [];
    const provider: PaymentProvider = {
      name: 'fake',
      createCheckoutSession: (request) => {
        requests.push(request);
        return Promise.resolve({ sessionId: 'cs_test_1', url: 'https://pay.example.com/cs_test_1' });
      },
      createPortalSession: (request) => {
        requests.push(request);
        return Promise.resolve({ url: 'https://pay.example.com/portal' });
      },
    };
    let database: TestDatabase;
    let app: Awaited<ReturnType<typeof buildApp>>;
    beforeAll(async () => {
      database = await openTestDatabase();
      const config = loadConfig(
        {},
        {
          secret: generateSecret(),
          clientDir: undefined,
          journalDir: undefined,
          priceIds: { 'pro.annually': 'price_pro_year' },
          publicUrl: 'https://toolscope.example.com',
        },
      );
      app = await buildApp({ config, db: database.db, paymentProvider: provider });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      await database.drop();
    });

    it('hands the plan, its price id and the return URLs to the provider', async () => {
      const account = await registerAccount(app);
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/billing/create-checkout-session',
        headers: bearer(account.accessToken),
        payload: { planId: 'pro', interval: 'annually' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ sessionId: 'cs_test_1', url: 'https://pay.example.com/cs_test_1' });
      expect(requests[0]).toMatchObject({
        userId: account.user.id,
        email: account.email,
        planId: 'pro',
        interval: 'annually',
        priceId: 'price_pro_year',
        successUrl: 'https://toolscope.example.com/settings?tab=billing&checkout=success',
      });
      const missingPrice = await app.inject({
        method: 'POST',
        url: '/api/v1/billing/create-checkout-session',
        headers: bearer(account.accessToken),
        payload: { planId: 'pro', interval: 'monthly' },
      });
      expect(missingPrice.statusCode).toBe(400);
      expect(missingPrice.json().message).toBe('Price ID not configured for this plan');
      const portal = await app.inject({
        method: 'POST',
        url: '/api/v1/billing/create-portal-session',
        headers: bearer(account.accessToken),
      });
      expect(portal.json()).toEqual({ url: 'https://pay.example.com/portal' });
    });
  });
});
