import { fromPromise, setup } from 'xstate';
import { FAKE_CHECKOUT_MS } from '../../../contract/constants';
import type { CheckoutRequest, CheckoutSession, PaymentProvider } from './paymentProvider';
import { UpgradeText } from './upgradeText';

// The payment stub of SPEC §4: no call leaves the browser. A checkout session is "created" after
// FAKE_CHECKOUT_MS and an alert stands in for the redirect to the provider's hosted page.

/** A machine rather than a promise so its one-second wait runs on the actor system's clock
 * (a simulated clock in tests). */
export const fakeCheckoutSession = setup({
  types: { input: {} as CheckoutRequest, context: {} as CheckoutRequest, output: {} as CheckoutSession },
}).createMachine({
  id: 'fakeCheckoutSession',
  context: ({ input }) => input,
  initial: 'creating',
  states: {
    creating: { after: { [FAKE_CHECKOUT_MS]: 'created' } },
    created: { type: 'final' },
  },
  output: ({ context }) => ({ sessionId: `cs_simulated_${context.planId}_${context.interval}` }),
});

export const stubPaymentProvider: PaymentProvider = {
  name: 'simulated',
  redirectToCheckout(sessionId) {
    window.alert(UpgradeText.stubRedirectAlert(sessionId));
    return Promise.resolve();
  },
};

export const loadStubPaymentProvider = fromPromise(() => Promise.resolve(stubPaymentProvider));
