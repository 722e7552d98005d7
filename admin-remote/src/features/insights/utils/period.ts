// The period presets, as GMT+8 days: the office plans in Malaysian days whatever the browser's clock zone.
import { addDays, todayInMY, weekdayOf } from 'shared-api';

/** The server's INSIGHTS_MAX_DAYS (a test keeps them equal): the whole contract is not bundled for one number. */
export const MAX_DAYS = 366;

export type PeriodPreset = 'thisWeek' | 'next4Weeks' | 'thisMonth' | 'custom';
export const PERIOD_PRESETS: PeriodPreset[] = ['thisWeek', 'next4Weeks', 'thisMonth', 'custom'];
export type Period = { from: string; to: string };

/** The period a preset names on `today` (GMT+8, YYYY-MM-DD); custom has none of its own. */
export function presetPeriod(preset: Exclude<PeriodPreset, 'custom'>, today = todayInMY()): Period {
  if (preset === 'thisWeek') {
    const monday = addDays(today, -((weekdayOf(today) + 6) % 7));
    return { from: monday, to: addDays(monday, 6) };
  }
  if (preset === 'next4Weeks') return { from: today, to: addDays(today, 27) };
  const first = `${today.slice(0, 8)}01`;
  const nextMonth = addDays(first, 31).slice(0, 8) + '01';
  return { from: first, to: addDays(nextMonth, -1) };
}

/** Why a custom range cannot be asked for, or null when it can (the server's own rules, said before asking). */
export function periodProblem({ from, to }: Partial<Period>): 'missing' | 'order' | 'tooLong' | null {
  if (!from || !to) return 'missing';
  if (from > to) return 'order';
  if (addDays(from, MAX_DAYS - 1) < to) return 'tooLong';
  return null;
}
