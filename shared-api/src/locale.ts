import { loadWithLanguage } from 'shared-ui';
import { registerDateWords, type DateWords } from './contract/gmt8';
import type { Locale } from './contract/locale';

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

// A page switches to a language only once its date words are here: no date drawn in the language before.
loadWithLanguage(loadDateLocale);
