import { CAROUSEL_WEEKDAYS, formatDayInMY, inMY, type dayjs, type Locale } from 'shared-api';

export type CalendarDay = {
  /** YYYY-MM-DD in GMT+8. */
  date: string;
  isToday: boolean;
  isPast: boolean;
};

const toDay = (d: dayjs.Dayjs, today: string): CalendarDay => {
  const date = d.format('YYYY-MM-DD');
  return { date, isToday: date === today, isPast: date < today };
};

/** Monday to Friday of the current week in GMT+8 (the desktop table), or of a later week. */
export function currentWeekdays(now: Date | number = Date.now(), weekOffset = 0): CalendarDay[] {
  const today = inMY(now).startOf('day');
  const todayText = today.format('YYYY-MM-DD');
  const monday = today.subtract((today.day() + 6) % 7, 'day').add(weekOffset * 7, 'day');
  return Array.from({ length: 5 }, (_, i) => toDay(monday.add(i, 'day'), todayText));
}

/** The next 14 weekdays from today in GMT+8 (the mobile carousel); weekends skipped. */
export function upcomingWeekdays(now: Date | number = Date.now(), count = CAROUSEL_WEEKDAYS): CalendarDay[] {
  const today = inMY(now).startOf('day');
  const todayText = today.format('YYYY-MM-DD');
  const days: CalendarDay[] = [];
  for (let d = today; days.length < count; d = d.add(1, 'day')) {
    if (d.day() !== 0 && d.day() !== 6) days.push(toDay(d, todayText));
  }
  return days;
}

/** "Mon", "23 Nov" and "Monday 23 November 2026" for a GMT+8 date, in the page's language ("Isn", "23 Nov"; "周一", "11月23日"). */
export const dayLabel = (date: string, locale: Locale = 'en') => ({
  weekday: formatDayInMY(date, 'weekday', locale),
  short: formatDayInMY(date, 'dayMonth', locale),
  long: formatDayInMY(date, 'longDate', locale),
});
