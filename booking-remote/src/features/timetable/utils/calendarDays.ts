import { CAROUSEL_WEEKDAYS, dayInMY, inMY, type dayjs } from 'shared-api';

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

/** "Mon" and "23 Nov" for a GMT+8 date. */
export const dayLabel = (date: string) => {
  const d = dayInMY(date);
  return { weekday: d.format('ddd'), short: d.format('D MMM'), long: d.format('dddd D MMMM YYYY') };
};
