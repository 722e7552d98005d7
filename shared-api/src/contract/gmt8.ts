import { BOOKING_LEAD_HOURS, SLOT_MINUTES } from './constants';
import type { Locale } from './locale';

// GMT+8 days, slot times and their words, without dayjs: the public page's first load counts the next weekdays, hides
// slots inside the lead time and labels them, and dayjs (with its utc plugin, ~3 KB gzip) would be there only for
// that. Malaysia has kept one offset since 1982, so plain Date arithmetic is exact; gmt8.test.ts checks every helper
// against dayjs and the time-zone database. Code that needs date objects uses `shared-api/time` (dayjs).

/** GMT+8 in minutes (TIMEZONE, Asia/Kuala_Lumpur: no daylight saving since 1982). */
export const MY_UTC_OFFSET_MINUTES = 8 * 60;
const OFFSET_MS = MY_UTC_OFFSET_MINUTES * 60_000;
const DAY_MS = 86_400_000;

type Instant = Date | number | string | { valueOf(): number };
const toMs = (value: Instant): number =>
  typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : value.valueOf();

/** The GMT+8 wall clock of an instant, read from a Date shifted by the offset (its UTC fields are GMT+8's). */
const wallClock = (value: Instant) => new Date(toMs(value) + OFFSET_MS);

/** YYYY-MM-DD (GMT+8) of an instant. */
export const dateInMY = (value: Instant): string => wallClock(value).toISOString().slice(0, 10);

/** Today's date in GMT+8 as YYYY-MM-DD. */
export const todayInMY = (now: Date | number = Date.now()): string => dateInMY(now);

/** Midnight GMT+8 of a YYYY-MM-DD date in ms, or NaN for anything else (including 2026-02-30). */
export function midnightInMY(day: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(typeof day === 'string' ? day : '');
  if (!match) return NaN;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const utcMidnight = new Date(Date.UTC(year, month, date));
  if (utcMidnight.getUTCFullYear() !== year || utcMidnight.getUTCMonth() !== month || utcMidnight.getUTCDate() !== date) return NaN;
  return utcMidnight.valueOf() - OFFSET_MS;
}

/** The YYYY-MM-DD date `days` after (or before) `date`. */
export const addDays = (date: string, days: number): string => dateInMY(midnightInMY(date) + days * DAY_MS);

/** 0 (Sunday) to 6 (Saturday) for a YYYY-MM-DD date. */
export const weekdayOf = (date: string): number => new Date(midnightInMY(date.slice(0, 10)) + OFFSET_MS).getUTCDay();

/** Saturday or Sunday in GMT+8 for a YYYY-MM-DD date. */
export function isWeekend(date: string): boolean {
  const day = weekdayOf(date);
  return day === 0 || day === 6;
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

/** End time of a slot that starts at `minutes`. */
export const slotEndMinutes = (minutes: number): number => minutes + SLOT_MINUTES;

/** The instant (ms) a slot starts, from its GMT+8 date (YYYY-MM-DD, or an ISO date-time's date part) and time; NaN if either is bad. */
export function slotStartMs(date: string, time: string): number {
  const minutes = parseSlotTime(time);
  if (minutes === null || typeof date !== 'string') return NaN;
  return midnightInMY(date.slice(0, 10)) + minutes * 60_000;
}

/** A slot is bookable when it starts at least `leadHours` after now (spec section 5). */
export function isBookableTime(date: string, time: string, now: Date | number = Date.now(), leadHours = BOOKING_LEAD_HOURS): boolean {
  const start = slotStartMs(date, time);
  return !Number.isNaN(start) && start - toMs(now) >= leadHours * 3_600_000;
}

// ---- Words: each language's patterns and names ----

export type DateStyle = 'weekday' | 'dayMonth' | 'longDate' | 'time' | 'stamp';

/**
 * A language's date words: its pattern per style (the word order differs: Chinese writes year, month, day; Malay puts a
 * comma after the weekday), day and month names, and its word for the time of day (AM/PM when absent).
 */
export type DateWords = {
  patterns: Record<DateStyle, string>;
  weekdays: string[];
  weekdaysShort: string[];
  months: string[];
  monthsShort: string[];
  meridiem?: (hour: number) => string;
};

// English is the first load's; Malay and Chinese are registered when chosen (./date-names-ms, ./date-names-zh).
const words: Partial<Record<Locale, DateWords>> = {
  en: {
    patterns: { weekday: 'ddd', dayMonth: 'D MMM', longDate: 'dddd D MMMM YYYY', time: 'h:mm A', stamp: 'D MMM YYYY, h:mm:ss A' },
    weekdays: 'Sunday_Monday_Tuesday_Wednesday_Thursday_Friday_Saturday'.split('_'),
    weekdaysShort: 'Sun_Mon_Tue_Wed_Thu_Fri_Sat'.split('_'),
    months: 'January_February_March_April_May_June_July_August_September_October_November_December'.split('_'),
    monthsShort: 'Jan_Feb_Mar_Apr_May_Jun_Jul_Aug_Sep_Oct_Nov_Dec'.split('_'),
  },
};

/** Makes a language's date words known (the browser loads them with the language; the server at start). */
export function registerDateWords(locale: Locale, dateWords: DateWords): void {
  words[locale] = dateWords;
}

const pad = (n: number) => String(n).padStart(2, '0');
const TOKENS = /YYYY|MMMM|MMM|M|dddd|ddd|D|h|mm|ss|A/g;

function format(ms: number, style: DateStyle, locale: Locale): string {
  const language = words[locale] ?? words.en!;
  const clock = wallClock(ms);
  const hour = clock.getUTCHours();
  const values: Record<string, () => string> = {
    YYYY: () => String(clock.getUTCFullYear()),
    MMMM: () => language.months[clock.getUTCMonth()],
    MMM: () => language.monthsShort[clock.getUTCMonth()],
    M: () => String(clock.getUTCMonth() + 1),
    dddd: () => language.weekdays[clock.getUTCDay()],
    ddd: () => language.weekdaysShort[clock.getUTCDay()],
    D: () => String(clock.getUTCDate()),
    h: () => String(hour % 12 || 12),
    mm: () => pad(clock.getUTCMinutes()),
    ss: () => pad(clock.getUTCSeconds()),
    A: () => language.meridiem?.(hour) ?? (hour < 12 ? 'AM' : 'PM'),
  };
  return language.patterns[style].replace(TOKENS, (token) => values[token]());
}

/** An instant in GMT+8, in the given language's pattern for `style`. */
export const formatInMY = (value: Instant, style: DateStyle, locale: Locale = 'en'): string =>
  format(toMs(value), style, locale);

/** A GMT+8 calendar date (YYYY-MM-DD, or an ISO date-time's date part) in the given language's pattern for `style`. */
export const formatDayInMY = (date: string, style: DateStyle, locale: Locale = 'en'): string =>
  format(midnightInMY(date.slice(0, 10)), style, locale);

/** A slot's start or end (minutes after midnight) as a time of day in the given language ("9:30 AM", "9:30 pagi", "上午9:30"). */
export const formatClock = (minutes: number, locale: Locale = 'en'): string =>
  format(midnightInMY('2000-01-03') + minutes * 60_000, 'time', locale);
