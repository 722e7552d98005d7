import Cookies from 'js-cookie';
import { registerDateNames } from './contract/gmt8';
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

/** Makes `locale`'s day and month names known (a small chunk of its own) before a page formats a date in it. */
export async function loadDateLocale(locale: Locale): Promise<void> {
  if (locale === 'en') return;
  const { MALAY_DATE_NAMES, CHINESE_DATE_NAMES } = await import('./contract/date-names');
  registerDateNames(locale, locale === 'ms' ? MALAY_DATE_NAMES : CHINESE_DATE_NAMES);
}
