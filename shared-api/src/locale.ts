import Cookies from 'js-cookie';
import { registerDateWords, type DateWords } from './contract/gmt8';
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, matchLocale, type Locale } from './contract/locale';

// The browser's language: remembered in a cookie (a year), else the browser's preferred languages, else English.
export function initialLocale(): Locale {
  const saved = Cookies.get(LOCALE_COOKIE);
  if (isLocale(saved)) return saved;
  const preferred = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return matchLocale(preferred) ?? DEFAULT_LOCALE;
}

export function saveLocale(locale: Locale): void {
  const secure = typeof window !== 'undefined' && window.location.protocol === 'https:';
  Cookies.set(LOCALE_COOKIE, locale, { path: '/', sameSite: 'Lax', secure, expires: 365 });
}

// Each language's date words, a chunk each (~0.3 KB): English pages never fetch them.
const dateWordLoaders: Record<Exclude<Locale, 'en'>, () => Promise<DateWords>> = {
  ms: () => import(/* webpackChunkName: "frame-ms" */ './contract/date-names-ms').then((m) => m.MALAY_DATE_NAMES),
  zh: () => import(/* webpackChunkName: "frame-zh" */ './contract/date-names-zh').then((m) => m.CHINESE_DATE_NAMES),
};

/** Makes `locale`'s date words known before a page formats a date in it. */
export async function loadDateLocale(locale: Locale): Promise<void> {
  if (locale === 'en') return;
  registerDateWords(locale, await dateWordLoaders[locale]());
}
