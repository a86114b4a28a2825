import { assign, emit, enqueueActions, fromPromise, setup, type ActorLogic } from 'xstate';
import { CURRENT_PLAN_ID, type Plan, type PlanId } from '../../../contract/plans';
import type { BillingInterval, CheckoutRequest, CheckoutSession, PaymentProvider } from './paymentProvider';
import { fakeCheckoutSession, loadStubPaymentProvider } from './stubPayment';
import { UpgradeText } from './upgradeText';

// The Plan Upgrade dialog (SPEC §4 "Upgrade dialog", §5, §9 Plans): plan selection, then the
// payment summary. One run is one opening of the dialog and ends in `closed` (paid or dismissed),
// which resets it. Plans and their price ids are input (from GET /api/v1/config), never constants
// of the flow. Effects are the named actors loadPaymentProvider, createCheckoutSession and
// redirectToCheckout; the defaults are the SPEC's stub. Diagram: docs/dialogs.md.

export interface UpgradeDialogInput {
  plans: readonly Plan[];
  currentPlanId?: PlanId;
}

export interface UpgradeDialogContext {
  plans: readonly Plan[];
  currentPlanId: PlanId;
  interval: BillingInterval;
  selectedPlanId: PlanId | null;
  provider: PaymentProvider | null;
  checkoutSessionId: string | null;
  /** The inline error of the payment step. */
  paymentError: string | null;
}

export type UpgradeDialogEvent =
  | { type: 'INTERVAL_CHANGED'; interval: BillingInterval }
  | { type: 'PLAN_CHOSEN'; planId: PlanId }
  | { type: 'BACK' }
  | { type: 'PAY' }
  | { type: 'CLOSE' };

export type UpgradeDialogEmitted =
  { type: 'toast'; title: string; description?: string; variant: 'default' | 'destructive' } | { type: 'closed' };

/**
 * Any logic that turns a checkout request into a CheckoutSession: the stub machine (so its wait
 * follows the actor system's clock) or, later, a promise calling the API. Its output is read as a
 * CheckoutSession.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CheckoutSessionLogic = ActorLogic<any, any, CheckoutRequest, any, any>;

export function selectedPlan(context: Pick<UpgradeDialogContext, 'plans' | 'selectedPlanId'>): Plan | null {
  return context.plans.find((plan) => plan.id === context.selectedPlanId) ?? null;
}

/** The configured provider price id of the chosen plan and interval, or null when there is none. */
export function configuredPriceId(
  context: Pick<UpgradeDialogContext, 'plans' | 'selectedPlanId' | 'interval'>,
): string | null {
  const priceId = selectedPlan(context)?.priceId[context.interval]?.trim();
  return priceId ? priceId : null;
}

const INITIAL_SELECTION = {
  interval: 'monthly',
  selectedPlanId: null,
  provider: null,
  checkoutSessionId: null,
  paymentError: null,
} as const satisfies Partial<UpgradeDialogContext>;

const upgradeDialogSetup = setup({
  types: {
    input: {} as UpgradeDialogInput,
    context: {} as UpgradeDialogContext,
    events: {} as UpgradeDialogEvent,
    emitted: {} as UpgradeDialogEmitted,
  },
  actors: {
    loadPaymentProvider: loadStubPaymentProvider,
    createCheckoutSession: fakeCheckoutSession as CheckoutSessionLogic,
    // The redirect is entered only after the provider loaded (the context holds it by then).
    redirectToCheckout: fromPromise(({ input }: { input: { provider: PaymentProvider | null; sessionId: string } }) =>
      input.provider
        ? input.provider.redirectToCheckout(input.sessionId)
        : Promise.reject(new Error('no payment provider loaded')),
    ),
  },
  guards: {
    isCurrentPlan: ({ context, event }) => event.type === 'PLAN_CHOSEN' && event.planId === context.currentPlanId,
    isKnownPlan: ({ context, event }) =>
      event.type === 'PLAN_CHOSEN' && context.plans.some((plan) => plan.id === event.planId),
    priceIdMissing: ({ context }) => configuredPriceId(context) === null,
  },
  actions: {
    resetSelection: assign(INITIAL_SELECTION),
    // Back keeps the billing interval the user picked: only the payment attempt is forgotten.
    clearPayment: assign({ selectedPlanId: null, provider: null, checkoutSessionId: null, paymentError: null }),
    /** SPEC §4: a failed payment shows the toast 'Payment Failed' and an inline error. */
    reportPaymentFailure: enqueueActions(({ enqueue }, params: { message: string }) => {
      enqueue.assign({ paymentError: params.message });
      enqueue.emit({
        type: 'toast',
        title: UpgradeText.paymentFailed,
        description: params.message,
        variant: 'destructive',
      });
    }),
  },
});

/** Paying from the summary or after a failure: without a configured price id nothing is attempted. */
const PAY_TRANSITIONS = [
  {
    guard: 'priceIdMissing',
    target: '#upgradeDialog.payment.failed',
    actions: { type: 'reportPaymentFailure', params: { message: UpgradeText.priceIdNotConfigured } },
  },
  { target: '#upgradeDialog.payment.processing' },
] as const;

export const upgradeDialogMachine = upgradeDialogSetup.createMachine({
  id: 'upgradeDialog',
  context: ({ input }) => ({
    plans: input.plans,
    currentPlanId: input.currentPlanId ?? CURRENT_PLAN_ID,
    ...INITIAL_SELECTION,
  }),
  initial: 'selecting',
  on: {
    CLOSE: '.closed',
  },
  states: {
    selecting: {
      on: {
        INTERVAL_CHANGED: { actions: assign({ interval: ({ event }) => event.interval }) },
        PLAN_CHOSEN: [
          {
            guard: 'isCurrentPlan',
            actions: emit(({ context }) => ({
              type: 'toast' as const,
              title: UpgradeText.alreadyOnPlan(
                context.plans.find((p) => p.id === context.currentPlanId)?.name ?? context.currentPlanId,
              ),
              description: UpgradeText.alreadyOnPlanDescription,
              variant: 'default' as const,
            })),
          },
          {
            guard: 'isKnownPlan',
            target: 'payment',
            actions: assign({ selectedPlanId: ({ event }) => event.planId }),
          },
        ],
      },
    },
    payment: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            BACK: { target: '#upgradeDialog.selecting', actions: 'clearPayment' },
            PAY: PAY_TRANSITIONS,
          },
        },
        processing: {
          entry: assign({ paymentError: null }),
          initial: 'loadingProvider',
          states: {
            loadingProvider: {
              invoke: {
                src: 'loadPaymentProvider',
                onDone: { target: 'creatingSession', actions: assign({ provider: ({ event }) => event.output }) },
                onError: {
                  target: '#upgradeDialog.payment.failed',
                  actions: { type: 'reportPaymentFailure', params: { message: UpgradeText.providerFailedToLoad } },
                },
              },
            },
            creatingSession: {
              invoke: {
                src: 'createCheckoutSession',
                input: ({ context }) => ({
                  planId: context.selectedPlanId ?? '',
                  interval: context.interval,
                  priceId: configuredPriceId(context) ?? '',
                }),
                onDone: {
                  target: 'redirecting',
                  actions: assign({ checkoutSessionId: ({ event }) => (event.output as CheckoutSession).sessionId }),
                },
                onError: {
                  target: '#upgradeDialog.payment.failed',
                  actions: {
                    type: 'reportPaymentFailure',
                    params: ({ event }) => ({ message: failureText(event.error) }),
                  },
                },
              },
            },
            redirecting: {
              invoke: {
                src: 'redirectToCheckout',
                input: ({ context }) => ({ provider: context.provider, sessionId: context.checkoutSessionId ?? '' }),
                onDone: {
                  target: '#upgradeDialog.closed',
                  actions: emit(({ context }) => ({
                    type: 'toast' as const,
                    title: UpgradeText.paymentSuccessful,
                    description: UpgradeText.paymentSuccessfulDescription(selectedPlan(context)?.name ?? ''),
                    variant: 'default' as const,
                  })),
                },
                onError: {
                  target: '#upgradeDialog.payment.failed',
                  actions: {
                    type: 'reportPaymentFailure',
                    params: ({ event }) => ({ message: failureText(event.error) }),
                  },
                },
              },
            },
          },
        },
        failed: {
          on: {
            BACK: { target: '#upgradeDialog.selecting', actions: 'clearPayment' },
            PAY: PAY_TRANSITIONS,
          },
        },
      },
    },
    closed: {
      type: 'final',
      entry: ['resetSelection', emit({ type: 'closed' } as const)],
    },
  },
});

function failureText(error: unknown): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : UpgradeText.checkoutFailed;
}
