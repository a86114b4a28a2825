import { SimulatedClock, createActor, fromPromise, waitFor } from 'xstate';
import { PLANS, type Plan } from '../../../../src/contract/plans';
import type {
  CheckoutRequest,
  CheckoutSession,
  PaymentProvider,
} from '../../../../src/client/features/billing/paymentProvider';
import {
  upgradeDialogMachine,
  type UpgradeDialogEmitted,
} from '../../../../src/client/features/billing/upgradeDialogMachine';

/** Plans as GET /api/v1/config returns them once an operator configured price ids. */
const CONFIGURED_PLANS: Plan[] = PLANS.map((plan) => ({
  ...plan,
  priceId: { monthly: `price_${plan.id}_m`, annually: `price_${plan.id}_y` },
}));

interface Options {
  plans?: readonly Plan[];
  provider?: () => Promise<PaymentProvider>;
  checkout?: (request: CheckoutRequest) => Promise<CheckoutSession>;
}

/**
 * The machine on a simulated clock. Unless a test fakes them, the shipped stub effects run: the
 * one-second fake checkout session and the provider whose redirect is replaced by an alert.
 */
function startDialog(options: Options = {}) {
  const clock = new SimulatedClock();
  const emitted: UpgradeDialogEmitted[] = [];
  const redirects: string[] = [];
  const recordingProvider: PaymentProvider = {
    name: 'recording',
    redirectToCheckout: (sessionId) => {
      redirects.push(sessionId);
      return Promise.resolve();
    },
  };
  const checkoutRequests: CheckoutRequest[] = [];
  const machine = upgradeDialogMachine.provide({
    actors: {
      loadPaymentProvider: fromPromise<PaymentProvider>(options.provider ?? (() => Promise.resolve(recordingProvider))),
      ...(options.checkout
        ? {
            createCheckoutSession: fromPromise<CheckoutSession, CheckoutRequest>(async ({ input }) => {
              checkoutRequests.push(input);
              return options.checkout!(input);
            }),
          }
        : {}),
    },
  });
  const actor = createActor(machine, { input: { plans: options.plans ?? CONFIGURED_PLANS }, clock });
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, clock, emitted, redirects, checkoutRequests };
}

/** Lets the promise actors (provider load, redirect) settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('upgradeDialogMachine', () => {
  it('starts on the plan selection, billed monthly, with starter as the current plan', () => {
    const { actor } = startDialog();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('selecting');
    expect(snapshot.context.interval).toBe('monthly');
    expect(snapshot.context.currentPlanId).toBe('starter');
    expect(snapshot.context.plans.map((p) => p.id)).toEqual(['starter', 'pro', 'enterprise']);
  });

  it('toggles the billing interval', () => {
    const { actor } = startDialog();
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'annually' });
    expect(actor.getSnapshot().context.interval).toBe('annually');
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'monthly' });
    expect(actor.getSnapshot().context.interval).toBe('monthly');
  });

  it('only shows a toast when Starter is chosen', () => {
    const { actor, emitted } = startDialog();
    actor.send({ type: 'PLAN_CHOSEN', planId: 'starter' });
    expect(actor.getSnapshot().value).toBe('selecting');
    expect(actor.getSnapshot().context.selectedPlanId).toBeNull();
    expect(emitted).toEqual([
      {
        type: 'toast',
        title: 'Already on Starter Plan',
        description: 'Choose another plan to upgrade.',
        variant: 'default',
      },
    ]);
  });

  it('goes to the payment summary for a paid plan and back to the selection, keeping the interval', () => {
    const { actor } = startDialog();
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'annually' });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    expect(actor.getSnapshot().value).toEqual({ payment: 'idle' });
    expect(actor.getSnapshot().context.selectedPlanId).toBe('pro');

    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('selecting');
    expect(actor.getSnapshot().context.selectedPlanId).toBeNull();
    expect(actor.getSnapshot().context.interval).toBe('annually');
  });

  it('does not change the interval from the payment step', () => {
    const { actor } = startDialog();
    actor.send({ type: 'PLAN_CHOSEN', planId: 'enterprise' });
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'annually' });
    expect(actor.getSnapshot().context.interval).toBe('monthly');
  });

  it('pays through the stub: processing, a checkout session after one second, the redirect, then success', async () => {
    const { actor, clock, emitted, redirects } = startDialog();
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'annually' });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    actor.send({ type: 'PAY' });
    expect(actor.getSnapshot().matches({ payment: 'processing' })).toBe(true);

    await waitFor(actor, (s) => s.matches({ payment: { processing: 'creatingSession' } }));
    clock.increment(999);
    await settle();
    expect(actor.getSnapshot().matches({ payment: { processing: 'creatingSession' } })).toBe(true);
    expect(redirects).toEqual([]);

    clock.increment(1);
    await waitFor(actor, (s) => s.status === 'done');
    expect(redirects).toEqual(['cs_simulated_pro_annually']);
    expect(emitted).toEqual([
      {
        type: 'toast',
        title: 'Payment Successful!',
        description: 'Simulated Pro payment: no card was charged and your plan has not changed.',
        variant: 'default',
      },
      { type: 'closed' },
    ]);
    const { context } = actor.getSnapshot();
    expect(context.selectedPlanId).toBeNull();
    expect(context.interval).toBe('monthly');
    expect(context.checkoutSessionId).toBeNull();
  });

  it('ignores Back and a second Pay while processing', async () => {
    const { actor, clock } = startDialog();
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches({ payment: { processing: 'creatingSession' } }));
    actor.send({ type: 'BACK' });
    actor.send({ type: 'PAY' });
    clock.increment(500);
    actor.send({ type: 'PAY' });
    expect(actor.getSnapshot().matches({ payment: { processing: 'creatingSession' } })).toBe(true);
    // Had a Pay restarted the checkout, its one second would not be over yet.
    clock.increment(500);
    await waitFor(actor, (s) => s.status === 'done', { timeout: 1_000 });
  });

  it('sends the configured price id of the plan and interval to the checkout', async () => {
    const { actor, checkoutRequests } = startDialog({ checkout: () => Promise.resolve({ sessionId: 'cs_1' }) });
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'annually' });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'enterprise' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(checkoutRequests).toEqual([{ planId: 'enterprise', interval: 'annually', priceId: 'price_enterprise_y' }]);
  });

  it("fails with 'Price ID not configured for this plan' when the interval has no price id", () => {
    const plans = CONFIGURED_PLANS.map((plan) =>
      plan.id === 'pro' ? { ...plan, priceId: { monthly: 'price_pro_m', annually: '' } } : plan,
    );
    const { actor, emitted } = startDialog({ plans });
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'annually' });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    actor.send({ type: 'PAY' });
    expect(actor.getSnapshot().value).toEqual({ payment: 'failed' });
    expect(actor.getSnapshot().context.paymentError).toBe('Price ID not configured for this plan');
    expect(emitted).toEqual([
      {
        type: 'toast',
        title: 'Payment Failed',
        description: 'Price ID not configured for this plan',
        variant: 'destructive',
      },
    ]);
  });

  it('says the payment provider failed to load when its script does not load', async () => {
    const { actor, emitted } = startDialog({
      provider: () => Promise.reject(new Error('script error')),
    });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches({ payment: 'failed' }));
    expect(actor.getSnapshot().context.paymentError).toBe('The payment provider failed to load');
    expect(emitted).toEqual([
      {
        type: 'toast',
        title: 'Payment Failed',
        description: 'The payment provider failed to load',
        variant: 'destructive',
      },
    ]);
  });

  it('shows the checkout failure inline and in a toast, then pays again successfully', async () => {
    let attempts = 0;
    const { actor, emitted } = startDialog({
      checkout: () => {
        attempts += 1;
        return attempts === 1 ? Promise.reject(new Error('Card declined')) : Promise.resolve({ sessionId: 'cs_2' });
      },
    });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches({ payment: 'failed' }));
    expect(actor.getSnapshot().context.paymentError).toBe('Card declined');
    expect(emitted[0]).toEqual({
      type: 'toast',
      title: 'Payment Failed',
      description: 'Card declined',
      variant: 'destructive',
    });

    actor.send({ type: 'PAY' });
    expect(actor.getSnapshot().context.paymentError).toBeNull();
    await waitFor(actor, (s) => s.status === 'done');
    expect(emitted.map((e) => (e.type === 'toast' ? e.title : e.type))).toEqual([
      'Payment Failed',
      'Payment Successful!',
      'closed',
    ]);
  });

  it('goes back to the selection from a failed payment', async () => {
    const { actor } = startDialog({
      checkout: () => Promise.reject(new Error('Card declined')),
    });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches({ payment: 'failed' }));
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('selecting');
    expect(actor.getSnapshot().context.paymentError).toBeNull();
  });

  it('resets when closed, even in the middle of a payment, and never redirects afterwards', async () => {
    const { actor, clock, emitted, redirects } = startDialog();
    actor.send({ type: 'INTERVAL_CHANGED', interval: 'annually' });
    actor.send({ type: 'PLAN_CHOSEN', planId: 'pro' });
    actor.send({ type: 'PAY' });
    await waitFor(actor, (s) => s.matches({ payment: { processing: 'creatingSession' } }));
    actor.send({ type: 'CLOSE' });
    clock.increment(2_000);
    await settle();

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('closed');
    expect(snapshot.context).toMatchObject({
      interval: 'monthly',
      selectedPlanId: null,
      paymentError: null,
      checkoutSessionId: null,
    });
    expect(redirects).toEqual([]);
    expect(emitted).toEqual([{ type: 'closed' }]);
  });
});
