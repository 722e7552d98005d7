// Which days a slot range covers (GMT+8 calendar days) and a slot's times.
import { formatMinutes24, parseSlotTime, slotEndMinutes } from 'shared-api';
import { LATEST_SLOT_START_MINUTES } from 'shared-api/schemas';
import { inMY, dayInMY } from 'shared-api/time';

/** Longest range one submission may cover, so a typo in the year cannot fire hundreds of requests. */
export const MAX_RANGE_DAYS = 92;

/** Tomorrow's date in GMT+8 as YYYY-MM-DD: the earliest day a slot can be created for. */
export const tomorrowInMY = (now: Date | number = Date.now()): string => inMY(now).add(1, 'day').format('YYYY-MM-DD');

/** The first weekday (Monday to Friday) from tomorrow in GMT+8: the day the dialog opens on (never a Saturday or Sunday). */
export function firstWeekdayFromTomorrow(now: Date | number = Date.now()): string {
  let day = inMY(now).add(1, 'day');
  while (day.day() === 0 || day.day() === 6) day = day.add(1, 'day');
  return day.format('YYYY-MM-DD');
}

const parseDay = (day: string) => dayInMY(day);

/** The day of the week of a YYYY-MM-DD day (0 Sunday … 6 Saturday). */
export const dayOfWeek = (day: string): number => parseDay(day).day();

/** A real calendar day in YYYY-MM-DD form (30 February is not). */
const isIsoDay = (value: string): boolean => parseDay(value).isValid();

/** Calendar days from start to end inclusive (empty when end is before start or either is not a date). */
export function daysInRange(start: string, end: string): string[] {
  if (!isIsoDay(start) || !isIsoDay(end) || end < start) return [];
  const days: string[] = [];
  // Noon avoids any daylight-saving edge; GMT+8 has none today, but the arithmetic stays safe.
  let cursor = parseDay(start).hour(12);
  const last = parseDay(end).hour(12);
  while (!cursor.isAfter(last, 'day')) {
    days.push(cursor.format('YYYY-MM-DD'));
    cursor = cursor.add(1, 'day');
  }
  return days;
}

/** 'HH:mm' start and end (start + 30 minutes) of a slot, or null when the time is unreadable or later than the latest start. */
export function slotTimes(startTime: string): { startTime: string; endTime: string } | null {
  const minutes = parseSlotTime(startTime);
  if (minutes === null || minutes > LATEST_SLOT_START_MINUTES) return null;
  return { startTime: formatMinutes24(minutes), endTime: formatMinutes24(slotEndMinutes(minutes)) };
}
