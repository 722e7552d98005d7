import type { Locale } from 'shared-api';
import { defineCatalog, type Translate } from 'shared-ui';
import en from './locales/en.json';

/** The manage page's words (summary, reschedule and cancel dialogs, notices, errors), in its own chunk. */
export const manageCatalog = defineCatalog('booking.manage', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});

export type ManageTextId = keyof typeof en;
/** What `useCatalog(manageCatalog)` gives: the texts and the language that dates and amounts follow. */
export type ManageWords = { t: Translate<typeof en>; locale: Locale };
