/**
 * The card payment provider as the upgrade flow sees it. The shipped provider is the stub of
 * SPEC §4; a real one (its script loaded on demand) implements the same interface and is plugged
 * in as the `loadPaymentProvider` actor, without touching the flow.
 */
export interface PaymentProvider {
  name: string;
  redirectToCheckout(sessionId: string): Promise<void>;
}

export type BillingInterval = 'monthly' | 'annually';

export interface CheckoutRequest {
  planId: string;
  interval: BillingInterval;
  priceId: string;
}

export interface CheckoutSession {
  sessionId: string;
}
