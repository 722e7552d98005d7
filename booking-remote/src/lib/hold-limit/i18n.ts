import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** What a form says while it solves a hold-limit challenge (the booking dialog, the waitlist form). */
export const holdLimitCatalog = defineCatalog('booking.holdLimit', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
