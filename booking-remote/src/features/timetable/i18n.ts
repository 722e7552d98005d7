import type { DatabaseMessage, HealthMessage, SlotListError } from 'shared-api';
import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** Its ids include SlotListError's, HealthMessage's and DatabaseMessage's keys, whose English texts are the spec's. */
type SpecTexts = Record<keyof typeof SlotListError | keyof typeof HealthMessage | keyof typeof DatabaseMessage, string>;

/**
 * The timetable's words (its notices and errors too) and the booking pages' loading label.
 * On the public page's first load (English bundled, the other languages fetched when chosen): keep it to these.
 */
// The home page's catalogues of a language (timetable, payment notice) share one chunk (home-<language>).
export const timetableCatalog = defineCatalog('booking.timetable', en satisfies SpecTexts, {
  ms: () => import(/* webpackChunkName: "home-ms" */ './locales/ms.json'),
  zh: () => import(/* webpackChunkName: "home-zh" */ './locales/zh.json'),
});

export type TimetableMessageId = keyof typeof en;
