import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/**
 * The manage-link notice's words, on the success and thank-you pages: a catalogue of its own so that those pages do
 * not carry the manage page's catalogue (see ../link.ts).
 */
export const manageLinkCatalog = defineCatalog('booking.manageLink', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
