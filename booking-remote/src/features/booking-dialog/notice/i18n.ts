import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The payment-in-progress notice's two lines: on the home page's first load, so apart from the (lazy) dialog's catalogue. */
export const noticeCatalog = defineCatalog('booking.notice', en, {
  ms: () => import(/* webpackChunkName: "home-ms" */ './locales/ms.json'),
  zh: () => import(/* webpackChunkName: "home-zh" */ './locales/zh.json'),
});
