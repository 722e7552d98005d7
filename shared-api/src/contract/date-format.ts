import type { Dayjs } from 'dayjs';
import { dayjs, dayInMY, inMY } from './time';
import type { Locale } from './locale';

// Dates and times for each language, always in GMT+8. The word order differs by language, so each names its patterns;
// the day and month names come from dayjs's locale data (registered by `registerDateLocale`: the server at start,
// the browser when a language is chosen, so English pages never download another language's names).
export type DateStyle = 'weekday' | 'dayMonth' | 'longDate' | 'time' | 'stamp';

const PATTERNS: Record<Locale, Record<DateStyle, string>> = {
  en: { weekday: 'ddd', dayMonth: 'D MMM', longDate: 'dddd D MMMM YYYY', time: 'h:mm A', stamp: 'D MMM YYYY, h:mm:ss A' },
  ms: { weekday: 'ddd', dayMonth: 'D MMM', longDate: 'dddd, D MMMM YYYY', time: 'h:mm A', stamp: 'D MMM YYYY, h:mm:ss A' },
  zh: { weekday: 'ddd', dayMonth: 'M月D日', longDate: 'YYYY年M月D日 dddd', time: 'Ah:mm', stamp: 'YYYY年M月D日 Ah:mm:ss' },
};

/** dayjs's name for each language's locale data. */
export const DAYJS_LOCALE: Record<Locale, string> = { en: 'en', ms: 'ms', zh: 'zh-cn' };

/** Malay times read "9:30 pagi" / "2:30 petang" (dayjs's Malay data has no meridiem of its own). */
const malayMeridiem = (hour: number) => (hour < 12 ? 'pagi' : hour < 14 ? 'tengah hari' : hour < 19 ? 'petang' : 'malam');

type DayjsLocaleData = { name: string; meridiem?: (hour: number, minute: number, lower: boolean) => string };

/** Makes a language's day and month names known to dayjs (`import('dayjs/locale/ms')`'s default export, say). */
export function registerDateLocale(data: DayjsLocaleData): void {
  const withMeridiem = data.name === 'ms' ? { ...data, meridiem: malayMeridiem } : data;
  dayjs.locale(withMeridiem as never, undefined, true);
}

const inLocale = (value: Dayjs, locale: Locale) => (locale === 'en' ? value : value.locale(DAYJS_LOCALE[locale]));

/** An instant in GMT+8, in the given language's pattern for `style`. */
export const formatInMY = (value: Date | number | string | Dayjs, style: DateStyle, locale: Locale = 'en'): string =>
  inLocale(inMY(dayjs.isDayjs(value) ? value.valueOf() : value), locale).format(PATTERNS[locale][style]);

/** A GMT+8 calendar date (YYYY-MM-DD) in the given language's pattern for `style`. */
export const formatDayInMY = (date: string, style: DateStyle, locale: Locale = 'en'): string =>
  inLocale(dayInMY(date.slice(0, 10)), locale).format(PATTERNS[locale][style]);

/** A slot's start or end (minutes after midnight) as a time of day in the given language ("9:30 AM", "9:30 pagi", "上午9:30"). */
export const formatClock = (minutes: number, locale: Locale = 'en'): string =>
  inLocale(dayInMY('2000-01-03').add(minutes, 'minute'), locale).format(PATTERNS[locale].time);
