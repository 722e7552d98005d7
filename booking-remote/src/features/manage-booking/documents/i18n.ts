import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The manage page's "Before your visit" (issue 40): uploads, the registration form's tick, the PDPA notice. */
export const documentsCatalog = defineCatalog('booking.documents', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});

export type DocumentsTextId = keyof typeof en;
