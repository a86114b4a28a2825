import { ANNUAL_BADGE } from '../../../contract/plans';
import { ErrorText } from '../../../contract/errors';

// The texts of the Plan Upgrade dialog (SPEC §2, §4, §5, §8), written once for the machine and the view.
export const UpgradeText = {
  title: 'Upgrade your plan',
  subtitle: 'Choose the plan that fits how many agents you trace.',
  monthly: 'Monthly',
  annually: 'Annual',
  annualBadge: ANNUAL_BADGE,
  popular: 'Most Popular',
  currentPlan: 'Current Plan',
  upgradeTo: (planName: string) => `Upgrade to ${planName}`,
  alreadyOnPlan: (planName: string) => `Already on ${planName} Plan`,
  alreadyOnPlanDescription: 'Choose another plan to upgrade.',
  perMonth: '/month',
  perYear: '/year',
  savingPerMonth: (amount: string) => `Save ${amount}/month`,
  summaryTitle: 'Payment summary',
  plan: 'Plan',
  billing: 'Billing',
  billedMonthly: 'Billed monthly',
  billedAnnually: 'Billed annually',
  total: 'Total',
  back: 'Back',
  pay: (amount: string) => `Pay ${amount}`,
  processing: 'Processing',
  stubNotice: 'Payments are simulated in this build: no card is charged.',
  paymentSuccessful: 'Payment Successful!',
  /** The stub takes no money and changes no plan: its success toast says so (issue 14 item 10). */
  paymentSuccessfulDescription: (planName: string) =>
    `Simulated ${planName} payment: no card was charged and your plan has not changed.`,
  paymentFailed: ErrorText.paymentFailed,
  priceIdNotConfigured: ErrorText.priceIdNotConfigured,
  providerFailedToLoad: 'The payment provider failed to load',
  checkoutFailed: 'The checkout could not be started',
  stubRedirectAlert: (sessionId: string) =>
    `Checkout session ${sessionId} created. Payments are simulated in this build, so instead of ` +
    'going to the payment provider nothing is charged.',
} as const;

/** Whole amounts without decimals ($29), others with cents ($4.83). */
export function formatPrice(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}
