// The staff side's one way of writing dates, times and phone numbers (English, GMT+8), for every feature:
// days as Malaysians write them ('26 Nov 2026', with the weekday where people plan by it), 12-hour times.
import { formatMinutes12, parseSlotTime } from 'shared-api';
import { dayInMY, inMY } from 'shared-api/time';

const DAY = 'D MMM YYYY';
const WEEKDAY_DAY = 'ddd D MMM YYYY';

/** A calendar day (YYYY-MM-DD, or an instant's day in GMT+8) as YYYY-MM-DD; the text as given when unreadable. */
export function dayOf(date: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const instant = inMY(date);
  return instant.isValid() ? instant.format('YYYY-MM-DD') : date.slice(0, 10);
}

const formatDayWith = (date: string, pattern: string): string => {
  const day = dayInMY(dayOf(date));
  return day.isValid() ? day.format(pattern) : date;
};

/** '26 Nov 2026' (a bare day, or an instant's day in GMT+8). */
export const formatDay = (date: string): string => formatDayWith(date, DAY);

/** 'Thu 26 Nov 2026': where staff plan by the weekday (slot lists, the move list, the create preview). */
export const formatWeekday = (date: string): string => formatDayWith(date, WEEKDAY_DAY);

/** '8:30 AM' from a slot's time in either notation ('08:30', '8:30 AM'); the text as given when unreadable. */
export function formatTime(time: string): string {
  const minutes = parseSlotTime(time);
  return minutes === null ? time : formatMinutes12(minutes);
}

/** An instant's time of day in GMT+8: '9:00 AM' ('9:00:13 AM' with seconds). */
export function formatInstantTime(iso: string, { seconds = false } = {}): string {
  const instant = inMY(iso);
  return instant.isValid() ? instant.format(seconds ? 'h:mm:ss A' : 'h:mm A') : iso;
}

/** '9:00 AM – 9:30 AM'. */
export const formatTimeRange = (start: string, end: string): string => `${formatTime(start)} – ${formatTime(end)}`;

/** A visit given as ISO instants: '9:00 AM – 9:30 AM' in GMT+8. */
export const formatInstantRange = (start: string, end: string): string => `${formatInstantTime(start)} – ${formatInstantTime(end)}`;

/** An instant in GMT+8: '25 Nov 2026, 4:41 PM' ('25 Nov 2026, 4:41:13 PM' with seconds, as the audit trail keeps them). */
export function formatInstant(iso: string, options: { seconds?: boolean } = {}): string {
  const instant = inMY(iso);
  return instant.isValid() ? `${instant.format(DAY)}, ${formatInstantTime(iso, options)}` : iso;
}

/** Contact numbers: the one formatter of the desk, its CSV, the admin's mails and the calendar feed. */
export { formatPhone } from 'shared-api/phone';
