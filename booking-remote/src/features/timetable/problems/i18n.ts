import type { DatabaseMessage, HealthMessage, SlotListError } from 'shared-api';
import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** Its ids include SlotListError's, HealthMessage's and DatabaseMessage's keys, whose English texts are the spec's. */
type SpecTexts = Record<keyof typeof SlotListError | keyof typeof HealthMessage | keyof typeof DatabaseMessage, string>;

/** The timetable's errors and notices (spec section 8): off the first load, fetched with the notice that shows one. */
export const problemsCatalog = defineCatalog('booking.timetableProblems', en satisfies SpecTexts, {
  ms: () => import(/* webpackChunkName: "timetable-problems-ms" */ './locales/ms.json'),
  zh: () => import(/* webpackChunkName: "timetable-problems-zh" */ './locales/zh.json'),
});

export type ProblemMessageId = keyof typeof en;
