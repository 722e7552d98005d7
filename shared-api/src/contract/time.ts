import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { BOOKING_LEAD_HOURS, SLOT_MINUTES, TIMEZONE } from './constants';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

export { dayjs };

/**
 * Minutes after midnight for a slot time in 24-hour `HH:mm` or 12-hour `hh:mm AM/PM` form
 * (12 AM is 0, PM adds 12 except 12 PM); null when it cannot be parsed.
 */
export function parseSlotTime(text: string | null | undefined): number | null {
  if (typeof text !== 'string') return null;
  const t = text.trim();
  const twelve = /^(\d{1,2}):(\d{2})\s?([AaPp])[Mm]$/.exec(t);
  if (twelve) {
    let hours = Number(twelve[1]);
    const minutes = Number(twelve[2]);
    if (hours < 1 || hours > 12 || minutes > 59) return null;
    const pm = twelve[3].toLowerCase() === 'p';
    if (hours === 12) hours = pm ? 12 : 0;
    else if (pm) hours += 12;
    return hours * 60 + minutes;
  }
  const twentyFour = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(t);
  if (twentyFour) {
    const hours = Number(twentyFour[1]);
    const minutes = Number(twentyFour[2]);
    if (hours > 23 || minutes > 59) return null;
    return hours * 60 + minutes;
  }
  return null;
}

/** `HH:mm` for minutes after midnight. */
export const formatMinutes24 = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** `h:mm AM` for minutes after midnight. */
export function formatMinutes12(minutes: number): string {
  const h24 = Math.floor(minutes / 60);
  const suffix = h24 < 12 ? 'AM' : 'PM';
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  return `${h12}:${String(minutes % 60).padStart(2, '0')} ${suffix}`;
}

/** The instant a slot starts, from its GMT+8 date (YYYY-MM-DD, or an ISO date-time whose date part is used) and time. */
export function slotStart(date: string, time: string): Dayjs | null {
  const minutes = parseSlotTime(time);
  const day = typeof date === 'string' ? date.slice(0, 10) : '';
  if (minutes === null || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const midnight = dayjs.tz(day, 'YYYY-MM-DD', TIMEZONE);
  if (!midnight.isValid()) return null;
  return midnight.add(minutes, 'minute');
}

/** A slot is bookable when it starts at least `leadHours` after now (spec section 5). */
export function isBookableTime(date: string, time: string, now: Date | number = Date.now(), leadHours = BOOKING_LEAD_HOURS): boolean {
  const start = slotStart(date, time);
  if (!start) return false;
  return start.valueOf() - dayjs(now).valueOf() >= leadHours * 60 * 60 * 1000;
}

/** Today's date in GMT+8 as YYYY-MM-DD. */
export const todayInMY = (now: Date | number = Date.now()): string => dayjs(now).tz(TIMEZONE).format('YYYY-MM-DD');

/** A dayjs in GMT+8. */
export const inMY = (value: Date | number | string = Date.now()): Dayjs => dayjs(value).tz(TIMEZONE);

/** End time of a slot that starts at `minutes`. */
export const slotEndMinutes = (minutes: number): number => minutes + SLOT_MINUTES;

/** Saturday or Sunday in GMT+8 for a YYYY-MM-DD date. */
export function isWeekend(date: string): boolean {
  const d = dayjs.tz(date.slice(0, 10), 'YYYY-MM-DD', TIMEZONE).day();
  return d === 0 || d === 6;
}
