import { PLANS, planById } from '../../../../src/contract/plans';
import { planPriceView } from '../../../../src/client/features/billing/planPricing';
import { formatPrice } from '../../../../src/client/features/billing/upgradeText';

describe('planPriceView', () => {
  it('reads the monthly price per month', () => {
    expect(planPriceView(planById('pro'), 'monthly')).toEqual({ amount: '$29', period: '/month', saving: null });
  });

  it('reads the annual price per year with the per-month saving (monthly × 12 − annual) / 12', () => {
    expect(planPriceView(planById('pro'), 'annually')).toEqual({
      amount: '$290',
      period: '/year',
      saving: 'Save $4.83/month',
    });
    expect(planPriceView(planById('enterprise'), 'annually').saving).toBe('Save $16.50/month');
  });

  it('shows no saving for the free plan', () => {
    expect(planPriceView(planById('starter'), 'annually')).toEqual({ amount: '$0', period: '/year', saving: null });
  });

  it('follows the configured prices rather than fixed ones', () => {
    const repriced = { ...PLANS[1], price: { monthly: 50, annually: 480 } };
    expect(planPriceView(repriced, 'annually').saving).toBe('Save $10/month');
  });
});

describe('formatPrice', () => {
  it('drops the cents of whole amounts only', () => {
    expect(formatPrice(29)).toBe('$29');
    expect(formatPrice(4.833333)).toBe('$4.83');
    expect(formatPrice(16.5)).toBe('$16.50');
  });
});
