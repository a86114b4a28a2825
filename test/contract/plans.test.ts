import { annualSavingPerMonth, ANNUAL_BADGE, CURRENT_PLAN_ID, PLANS, planById } from '../../src/contract/plans';

describe('plans (SPEC §9)', () => {
  it('has starter, pro and enterprise with the SPEC prices and limits', () => {
    expect(PLANS.map((p) => [p.id, p.price.monthly, p.price.annually, p.agentCallsPerMonth, p.workspaces])).toEqual([
      ['starter', 0, 0, 1_000, 1],
      ['pro', 29, 290, 100_000, 5],
      ['enterprise', 99, 990, null, null],
    ]);
    expect(CURRENT_PLAN_ID).toBe('starter');
    expect(ANNUAL_BADGE).toBe('Save 17%');
  });

  it('computes the per-month saving as (monthly × 12 − annual) / 12', () => {
    expect(annualSavingPerMonth(planById('pro'))).toBeCloseTo((29 * 12 - 290) / 12, 10);
    expect(annualSavingPerMonth(planById('enterprise'))).toBeCloseTo(16.5, 10);
    expect(annualSavingPerMonth(planById('starter'))).toBe(0);
  });
});
