import { billingPeriodContaining, monthStart } from '../../../src/server/modules/billing/store';

const utc = (text: string) => new Date(`${text}T00:00:00Z`);

describe('billing periods', () => {
  it('starts the month at 00:00 UTC on the 1st', () => {
    expect(monthStart(new Date('2026-11-21T05:40:00Z')).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('finds the monthly period containing a date, across a year end', () => {
    expect(billingPeriodContaining(utc('2027-01-15'), 'monthly', utc('2026-11-01'))).toEqual({
      start: utc('2027-01-01'),
      end: utc('2027-02-01'),
    });
  });

  it('finds the annual period containing a date', () => {
    expect(billingPeriodContaining(utc('2028-03-02'), 'annually', utc('2026-11-01'))).toEqual({
      start: utc('2027-11-01'),
      end: utc('2028-11-01'),
    });
  });

  it('puts the first instant of a period in that period', () => {
    expect(billingPeriodContaining(utc('2026-12-01'), 'monthly', utc('2026-11-01')).start).toEqual(utc('2026-12-01'));
  });
});
