import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { BOOKING_LEAD_HOURS, SLOT_MINUTES } from './constants';

dayjs.extend(utc);

export { dayjs };

/**
 * GMT+8, the schools' time (TIMEZONE, Asia/Singapore: no daylight saving since 1982). A fixed offset gives the same
 * answers as the time-zone database without Intl, whose first use costs a slow phone ~50 ms on the page's first load.
 */
export const MY_UTC_OFFSET_MINUTES = 8 * 60;

/** A dayjs in GMT+8. */
export const inMY = (value: Date | number | string = Date.now()): Dayjs => dayjs(value).utcOffset(MY_UTC_OFFSET_MINUTES);

/** Midnight GMT+8 of a YYYY-MM-DD date; an invalid dayjs for anything else (including 2026-02-30). */
export function dayInMY(day: string): Dayjs {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(typeof day === 'string' ? day : '');
  if (!match) return dayjs(NaN);
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const utcMidnight = new Date(Date.UTC(year, month, date));
  if (utcMidnight.getUTCFullYear() !== year || utcMidnight.getUTCMonth() !== month || utcMidnight.getUTCDate() !== date) {
    return dayjs(NaN);
  }
  return inMY(utcMidnight.valueOf() - MY_UTC_OFFSET_MINUTES * 60_000);
}

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
  const midnight = dayInMY(day);
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
export const todayInMY = (now: Date | number = Date.now()): string => inMY(now).format('YYYY-MM-DD');

/** End time of a slot that starts at `minutes`. */
export const slotEndMinutes = (minutes: number): number => minutes + SLOT_MINUTES;

/** Saturday or Sunday in GMT+8 for a YYYY-MM-DD date. */
export function isWeekend(date: string): boolean {
  const d = dayInMY(date.slice(0, 10)).day();
  return d === 0 || d === 6;
}
