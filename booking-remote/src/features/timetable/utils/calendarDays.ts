import { addDays, CAROUSEL_WEEKDAYS, formatDayInMY, todayInMY, weekdayOf, type Locale } from 'shared-api';

// Plain GMT+8 date strings (shared-api's dayjs-free helpers): the timetable is on the public page's first load.

export type CalendarDay = {
  /** YYYY-MM-DD in GMT+8. */
  date: string;
  isToday: boolean;
  isPast: boolean;
};

const toDay = (date: string, today: string): CalendarDay => ({ date, isToday: date === today, isPast: date < today });

/** Monday to Friday of the current week in GMT+8 (the desktop table), or of a later week. */
export function currentWeekdays(now: Date | number = Date.now(), weekOffset = 0): CalendarDay[] {
  const today = todayInMY(now);
  const monday = addDays(today, -((weekdayOf(today) + 6) % 7) + weekOffset * 7);
  return Array.from({ length: 5 }, (_, i) => toDay(addDays(monday, i), today));
}

/** The next 14 weekdays from today in GMT+8 (the mobile carousel); weekends skipped. */
export function upcomingWeekdays(now: Date | number = Date.now(), count = CAROUSEL_WEEKDAYS): CalendarDay[] {
  const today = todayInMY(now);
  const days: CalendarDay[] = [];
  for (let date = today; days.length < count; date = addDays(date, 1)) {
    const weekday = weekdayOf(date);
    if (weekday !== 0 && weekday !== 6) days.push(toDay(date, today));
  }
  return days;
}

/** "Mon", "23 Nov" and "Monday 23 November 2026" for a GMT+8 date, in the page's language ("Isn", "23 Nov"; "周一", "11月23日"). */
export const dayLabel = (date: string, locale: Locale = 'en') => ({
  weekday: formatDayInMY(date, 'weekday', locale),
  short: formatDayInMY(date, 'dayMonth', locale),
  long: formatDayInMY(date, 'longDate', locale),
});
