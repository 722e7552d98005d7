import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { midnightInMY, MY_UTC_OFFSET_MINUTES, parseSlotTime } from './gmt8';

dayjs.extend(utc);

// GMT+8 as dayjs objects, for code that does date arithmetic (the server, the staff side, the dialogs). The public
// page's first load uses the dayjs-free helpers of ./gmt8 instead; browser code imports this file as `shared-api/time`.
export { dayjs };

/** A dayjs in GMT+8. */
export const inMY = (value: Date | number | string = Date.now()): Dayjs => dayjs(value).utcOffset(MY_UTC_OFFSET_MINUTES);

/** Midnight GMT+8 of a YYYY-MM-DD date; an invalid dayjs for anything else (including 2026-02-30). */
export function dayInMY(day: string): Dayjs {
  const midnight = midnightInMY(day);
  return Number.isNaN(midnight) ? dayjs(NaN) : inMY(midnight);
}

/** The instant a slot starts, from its GMT+8 date (YYYY-MM-DD, or an ISO date-time whose date part is used) and time. */
export function slotStart(date: string, time: string): Dayjs | null {
  const minutes = parseSlotTime(time);
  const day = typeof date === 'string' ? date.slice(0, 10) : '';
  if (minutes === null || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const midnight = dayInMY(day);
  if (!midnight.isValid()) return null;
  return midnight.add(minutes, 'minute');
}
