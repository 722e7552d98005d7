import { INSIGHTS_MAX_DAYS } from 'shared-api/contract';
import { MAX_DAYS, periodProblem, presetPeriod } from './period';

describe('insights periods (GMT+8 days)', () => {
  it('this week runs Monday to Sunday, whatever day today is', () => {
    expect(presetPeriod('thisWeek', '2026-03-04')).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(presetPeriod('thisWeek', '2026-03-08')).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(presetPeriod('thisWeek', '2026-03-02')).toEqual({ from: '2026-03-02', to: '2026-03-08' });
  });
  it('the next 4 weeks are 28 days from today; this month is the calendar month', () => {
    expect(presetPeriod('next4Weeks', '2026-12-20')).toEqual({ from: '2026-12-20', to: '2027-01-16' });
    expect(presetPeriod('thisMonth', '2028-02-15')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(presetPeriod('thisMonth', '2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
  it('a custom range is checked by the server rules before it is asked for', () => {
    expect(MAX_DAYS).toBe(INSIGHTS_MAX_DAYS);
    expect(periodProblem({ from: '2026-03-02' })).toBe('missing');
    expect(periodProblem({ from: '2026-03-03', to: '2026-03-02' })).toBe('order');
    expect(periodProblem({ from: '2026-01-01', to: '2027-01-01' })).toBeNull();
    expect(periodProblem({ from: '2026-01-01', to: '2027-01-02' })).toBe('tooLong');
  });
});
