import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/**
 * The payment-in-progress notice's two lines, apart from the dialog's catalogue: the home page fetches the notice (and
 * these) only when the browser keeps a booking draft, so neither is on the first load.
 */
export const noticeCatalog = defineCatalog('booking.notice', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
