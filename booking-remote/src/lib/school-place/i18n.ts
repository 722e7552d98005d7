import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** Where the visit is: the words beside a school's address, map link and phone (dialog summary, result and manage pages). */
export const placeCatalog = defineCatalog('booking.place', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
