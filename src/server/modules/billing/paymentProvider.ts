import type { PlanId } from '../../../contract/plans';

// The card payment provider as the billing routes see it. None is configured by default, and then
// POST /billing/create-checkout-session and /create-portal-session answer 501 'Payments are not
// configured'. A real provider (docs/access.md, "Payments") implements this interface, is passed
// to buildApp({ paymentProvider }) by main.ts, and adds the webhook through which the provider
// tells Toolscope a payment went through — the only place a subscription moves up to a paid plan.
export interface CheckoutRequest {
  userId: string;
  email: string;
  planId: PlanId;
  interval: 'monthly' | 'annually';
  /** The provider's price for the plan and interval (TOOLSCOPE_PRICE_IDS). */
  priceId: string;
  /** Where the provider sends the user back after paying, or after giving up. */
  successUrl: string;
  cancelUrl: string;
}

export interface PaymentProvider {
  readonly name: string;
  createCheckoutSession(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  createPortalSession(request: { userId: string; email: string; returnUrl: string }): Promise<{ url: string }>;
}
