import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The payment result pages' and the thank-you page's words (and the manage-link notice shown on them). */
export const resultCatalog = defineCatalog('booking.result', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
