import { SimulatedClock, createActor, toPromise } from 'xstate';
import { fakeCheckoutSession, stubPaymentProvider } from '../../../../src/client/features/billing/stubPayment';

describe('the payment stub', () => {
  it('creates a checkout session only after one second of the clock', async () => {
    const clock = new SimulatedClock();
    const actor = createActor(fakeCheckoutSession, {
      input: { planId: 'pro', interval: 'monthly', priceId: 'price_pro_m' },
      clock,
    }).start();
    clock.increment(999);
    expect(actor.getSnapshot().status).toBe('active');
    clock.increment(1);
    await expect(toPromise(actor)).resolves.toEqual({ sessionId: 'cs_simulated_pro_monthly' });
  });

  it('shows an alert in place of the redirect to the payment provider', async () => {
    const alert = jest.spyOn(window, 'alert').mockImplementation(() => undefined);
    await stubPaymentProvider.redirectToCheckout('cs_simulated_pro_monthly');
    expect(alert).toHaveBeenCalledWith(
      'Checkout session cs_simulated_pro_monthly created. Payments are simulated in this build, so instead of ' +
        'going to the payment provider nothing is charged.',
    );
    alert.mockRestore();
  });
});
