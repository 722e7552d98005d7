import Cookies from 'js-cookie';
import { registerDateLocale } from './contract/gmt8';
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

// Each language's day and month names, a chunk of their own: English pages never fetch them.
const dateLocaleLoaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: { name: string } }>> = {
  ms: () => import('dayjs/locale/ms'),
  zh: () => import('dayjs/locale/zh-cn'),
};

/** Makes `locale`'s day and month names known before a page formats a date in it. */
export async function loadDateLocale(locale: Locale): Promise<void> {
  if (locale === 'en') return;
  const data = await dateLocaleLoaders[locale]();
  registerDateLocale(data.default);
}
