import { annualSavingPerMonth, type Plan } from '../../../contract/plans';
import type { BillingInterval } from './paymentProvider';
import { UpgradeText, formatPrice } from './upgradeText';

export interface PlanPriceView {
  /** e.g. '$29' or '$290'. */
  amount: string;
  /** '/month' or '/year'. */
  period: string;
  /** 'Save $4.83/month' with annual billing of a paid plan, else null. */
  saving: string | null;
}

/** How a plan's price reads for the chosen interval (SPEC §9: saving = (monthly × 12 − annual) / 12). */
export function planPriceView(plan: Pick<Plan, 'price'>, interval: BillingInterval): PlanPriceView {
  if (interval === 'monthly') {
    return { amount: formatPrice(plan.price.monthly), period: UpgradeText.perMonth, saving: null };
  }
  const saving = annualSavingPerMonth(plan);
  return {
    amount: formatPrice(plan.price.annually),
    period: UpgradeText.perYear,
    saving: saving > 0 ? UpgradeText.savingPerMonth(formatPrice(saving)) : null,
  };
}
