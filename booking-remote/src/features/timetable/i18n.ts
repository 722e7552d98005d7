import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/**
 * The timetable's words and the booking pages' loading label. On the public page's first load (English bundled, the
 * other languages fetched when chosen): keep it to these. Its errors and notices are in problems/, fetched when shown.
 */
// The home page's catalogues of a language (timetable, payment notice) share one chunk (home-<language>).
export const timetableCatalog = defineCatalog('booking.timetable', en, {
  ms: () => import(/* webpackChunkName: "home-ms" */ './locales/ms.json'),
  zh: () => import(/* webpackChunkName: "home-zh" */ './locales/zh.json'),
});

export type TimetableMessageId = keyof typeof en;
